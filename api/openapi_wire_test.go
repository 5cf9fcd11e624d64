package api

import (
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// An amount says its two decimal places in the schema, and the server's
// rule is that one: every body's example with a money field, that field
// set to 10.001, is a 400 naming it (through the handlers' bind and
// Validate), as a charge's is over HTTP.
func TestMoneyHasTwoDecimalPlaces(t *testing.T) {
	t.Parallel()
	d := decodedDoc(t, MerchantOpenAPI())
	amount := jsonAt(t, d, "paths", "/payment-pix/create", "post", "requestBody", "content", "application/json", "schema", "properties", "amount").(map[string]any)
	if amount["format"] != "decimal" || amount["x-decimal-places"] != 2.0 {
		t.Fatalf("amount's schema %v: want format decimal, x-decimal-places 2", amount)
	}
	if _, ok := amount["multipleOf"]; ok {
		t.Fatal("multipleOf 0.01: a binary floating point validator (Ajv) refuses 19.99 with it")
	}
	checked := 0
	for key, doc := range merchantDocs {
		body, _ := d["paths"].(map[string]any)[openAPIPath(strings.SplitN(key, " ", 2)[1])].(map[string]any)[strings.ToLower(strings.SplitN(key, " ", 2)[0])].(map[string]any)["requestBody"].(map[string]any)
		if body == nil || doc.Example == nil {
			continue
		}
		props, _ := jsonAt(t, body, "content", "application/json", "schema", "properties").(map[string]any)
		fields, _ := exampleFields(doc.Example)
		validate, ok := validatorOf(reflect.TypeOf(doc.Body))
		if !ok {
			continue
		}
		for name, p := range props {
			if p, _ := p.(map[string]any); p["format"] != "decimal" || fields[name] == nil || string(fields[name]) == "null" {
				continue
			}
			with := map[string]json.RawMessage{}
			for k, v := range fields {
				with[k] = v
			}
			with[name] = json.RawMessage("10.001")
			if err := validate(with); !names(err, name) {
				t.Errorf("%s: %s 10.001 answered %v, want a 400 naming %s", key, name, err, name)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d money fields checked", checked)
	}
	f := newFixture(t).authorized("payment-pix/create")
	w := f.merchant(http.MethodPost, "/v1/payment-pix/create", `{"amount":10.001,"description":"Pedido 1"}`)
	if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"amount must be a number with at most two decimal places"`) {
		t.Fatalf("10.001: %d %s", w.Code, w.Body)
	}
}

// The answers' headers are components, referenced where they are sent.
func TestOpenAPIAnswerHeaders(t *testing.T) {
	t.Parallel()
	d := decodedDoc(t, MerchantOpenAPI())
	for _, h := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After", "Idempotent-Replayed", "X-Request-Id"} {
		if jsonAt(t, d, "components", "headers", h) == nil {
			t.Errorf("components/headers lacks %s", h)
		}
	}
	has := func(v any, h string) bool {
		m, _ := v.(map[string]any)
		_, ok := m[h]
		return ok
	}
	create := jsonAt(t, d, "paths", "/payment-pix/create", "post", "responses", "200", "headers")
	get := jsonAt(t, d, "paths", "/payment-pix/get/{id}", "get", "responses", "200", "headers")
	for _, h := range []string{"X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
		if !has(create, h) || !has(get, h) {
			t.Errorf("a success lacks %s", h)
		}
	}
	if !has(create, "Idempotent-Replayed") || has(get, "Idempotent-Replayed") {
		t.Errorf("Idempotent-Replayed belongs to the idempotent POSTs only: create %v, get %v", create, get)
	}
	for code, want := range map[string]bool{"429": true, "503": true, "409": true, "400": false} {
		if got := has(jsonAt(t, d, "components", "responses", code, "headers"), "Retry-After"); got != want {
			t.Errorf("%s has Retry-After: %v, want %v", code, got, want)
		}
	}
}

// The served documents name the instance's address as their server.
func TestOpenAPIServersAreAbsolute(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.serve(http.MethodGet, "/v1/openapi.json", "")
	url := jsonAt(t, decodedDoc(t, w.Body.Bytes()), "servers").([]any)[0].(map[string]any)["url"]
	if url != testPublicURL+"/v1" {
		t.Fatalf("served merchant document's server %v, want %s/v1", url, testPublicURL)
	}
	w = f.serve(http.MethodGet, "/admin/v1/openapi.json", "")
	if url := jsonAt(t, decodedDoc(t, w.Body.Bytes()), "servers").([]any)[0].(map[string]any)["url"]; url != "http://127.0.0.1:8082/admin/v1" {
		t.Fatalf("served admin document's server %v", url)
	}
	if url := jsonAt(t, decodedDoc(t, MerchantOpenAPI()), "servers").([]any)[0].(map[string]any)["url"]; url != "http://localhost:8080/v1" {
		t.Fatalf("default merchant server %v", url)
	}
}

// The routes that read multipart/form-data say so, with their file parts,
// beside their JSON.
func TestOpenAPIMultipartBodies(t *testing.T) {
	t.Parallel()
	d := decodedDoc(t, MerchantOpenAPI())
	for path, file := range map[string]string{"/bureau/dunnings/create": "documents", "/meds/{id}/evidence": "files", "/subaccount/create": "document"} {
		content := jsonAt(t, d, "paths", path, "post", "requestBody", "content").(map[string]any)
		if content["application/json"] == nil || content["multipart/form-data"] == nil {
			t.Errorf("%s: media types %v, want JSON and multipart/form-data", path, slices.Collect(func(yield func(string) bool) {
				for k := range content {
					yield(k)
				}
			}))
			continue
		}
		part, _ := json.Marshal(jsonAt(t, content, "multipart/form-data", "schema", "properties", file))
		if !strings.Contains(string(part), `"format":"binary"`) {
			t.Errorf("%s: file part %s is %s", path, file, part)
		}
		if enc := jsonAt(t, content, "multipart/form-data", "encoding", file, "contentType"); enc != "application/pdf, image/png, image/jpeg" {
			t.Errorf("%s: %s's content types %v", path, file, enc)
		}
	}
	if jsonAt(t, d, "paths", "/meds/{id}/evidence", "post", "requestBody", "content", "multipart/form-data", "schema", "properties", "attachments") != nil {
		t.Error("the evidence form lists attachments, a JSON-only field")
	}
}
