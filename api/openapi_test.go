package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	oasvalidator "github.com/pb33f/libopenapi-validator"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
)

// openAPIOps reads a document's operations as "METHOD /path" → operation.
func openAPIOps(t *testing.T, doc []byte) map[string]map[string]any {
	t.Helper()
	var d struct {
		Paths map[string]map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("document is not JSON: %v", err)
	}
	ops := map[string]map[string]any{}
	for path, item := range d.Paths {
		for method, op := range item {
			ops[strings.ToUpper(method)+" "+path] = op
		}
	}
	return ops
}

// TestEveryRouteIsDocumented proves both directions for both APIs: every
// row of the route table has its Doc and its operation (with its
// permission as x-permission), and every Doc and every documented
// operation has its row.
func TestEveryRouteIsDocumented(t *testing.T) {
	for _, api := range []struct {
		name   string
		routes []Route
		docs   map[string]Doc
		doc    []byte
	}{
		{"merchant", Routes(), merchantDocs, MerchantOpenAPI()},
		{"admin", adminRoutes(), adminDocs, AdminOpenAPI()},
	} {
		t.Run(api.name, func(t *testing.T) {
			ops := openAPIOps(t, api.doc)
			rows := map[string]bool{}
			for _, r := range api.routes {
				rows[docKey(r)] = true
				if _, ok := api.docs[docKey(r)]; !ok {
					t.Errorf("route %s has no Doc: add it to api/openapi_<product>.go (see Doc in api/openapi.go)", docKey(r))
				}
				op, ok := ops[r.Method+" "+openAPIPath(r.Path)]
				if !ok {
					t.Errorf("route %s is not in the document", docKey(r))
					continue
				}
				if op["x-permission"] != r.Permission {
					t.Errorf("%s: x-permission %v, route table %q", docKey(r), op["x-permission"], r.Permission)
				}
				if s, _ := op["summary"].(string); s == "" || s == "(undocumented)" {
					t.Errorf("%s: no summary", docKey(r))
				}
			}
			for k := range api.docs {
				if !rows[k] {
					t.Errorf("Doc %q has no route in the route table (renamed or removed?)", k)
				}
			}
			paths := map[string]bool{}
			for _, r := range api.routes {
				paths[r.Method+" "+openAPIPath(r.Path)] = true
			}
			for k := range ops {
				if !paths[k] {
					t.Errorf("the document has %s, which no route serves", k)
				}
			}
		})
	}
}

// TestOpenAPIDocumentsAreValid checks both documents with libopenapi: they
// parse as OpenAPI 3.1, build a model without error, and validate against
// the OpenAPI 3.1 schema; operation ids are unique.
func TestOpenAPIDocumentsAreValid(t *testing.T) {
	for name, doc := range map[string][]byte{"merchant": MerchantOpenAPI(), "admin": AdminOpenAPI()} {
		t.Run(name, func(t *testing.T) {
			d, err := libopenapi.NewDocument(doc)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if v := d.GetVersion(); v != "3.1.0" {
				t.Fatalf("version %q, want 3.1.0", v)
			}
			if _, err := d.BuildV3Model(); err != nil {
				t.Fatalf("model: %v", err)
			}
			v, errs := oasvalidator.NewValidator(d)
			if len(errs) > 0 {
				t.Fatalf("validator: %v", errs)
			}
			if ok, verrs := v.ValidateDocument(); !ok {
				for _, e := range verrs {
					t.Errorf("invalid: %s (%s)", e.Message, e.Reason)
					for _, se := range e.SchemaValidationErrors {
						t.Errorf("  %s at %s", se.Reason, se.FieldPath)
					}
				}
			}
			var ids []string
			for k, op := range openAPIOps(t, doc) {
				id, _ := op["operationId"].(string)
				if id == "" || slices.Contains(ids, id) {
					t.Errorf("%s: operationId %q missing or not unique", k, id)
				}
				ids = append(ids, id)
			}
		})
	}
}

// TestOpenAPIDescribesRequests spot-checks that the reflected schemas carry
// what the Go types say: required fields and bounds from jsonschema tags,
// money as numbers, the shared envelopes, Idempotency-Key on creates.
func TestOpenAPIDescribesRequests(t *testing.T) {
	op := openAPIOps(t, MerchantOpenAPI())["POST /payment-pix/create"]
	b, _ := json.Marshal(op)
	s := string(b)
	for _, want := range []string{
		`"required":["amount","description"]`, `"maximum":1000000`, `"minimum":60`,
		`"name":"Idempotency-Key"`, `"$ref":"#/components/schemas/Envelope"`, `"$ref":"#/components/responses/400"`,
		`"$ref":"#/components/schemas/ChargeCreated"`, `"x-permission":"payment-pix/create"`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("POST /payment-pix/create lacks %s in %s", want, s)
		}
	}
	var d struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(MerchantOpenAPI(), &d); err != nil {
		t.Fatal(err)
	}
	compact := func(raw json.RawMessage) string {
		var b bytes.Buffer
		_ = json.Compact(&b, raw)
		return b.String()
	}
	cc := compact(d.Components.Schemas["ChargeCreated"])
	for _, want := range []string{`"amount":{"type":"number"`, `"expiresAt":{"type":"string","format":"date-time"}`, `"additionalProperties":false`} {
		if !strings.Contains(cc, want) {
			t.Errorf("ChargeCreated lacks %s: %s", want, cc)
		}
	}
	// A nil pointer without omitempty encodes as null: the schema says so.
	if acct := compact(d.Components.Schemas["PadraoBalance"]); !strings.Contains(acct, `"nextUnlockAt":{"anyOf":[`) {
		t.Errorf("PadraoBalance.nextUnlockAt is not nullable: %s", acct)
	}
}

// TestDocsAreServed fetches both documents and the reference page with its
// embedded assets from the server, without credentials.
func TestDocsAreServed(t *testing.T) {
	f := newFixture(t)
	for path, want := range map[string]string{
		"/v1/openapi.json":             `"openapi": "3.1.0"`,
		"/admin/v1/openapi.json":       `"title": "Jangada admin API"`,
		"/docs":                        `src="/docs/swagger-ui-bundle.js"`,
		"/docs/swagger-ui-bundle.js":   "SwaggerUIBundle",
		"/docs/swagger-ui.css":         ".swagger-ui",
		"/docs/favicon-32x32.png":      "PNG",
		"/docs/../../../../etc/passwd": "route not found",
	} {
		w := f.serve(http.MethodGet, path, "")
		if !strings.Contains(w.Body.String(), want) {
			t.Errorf("GET %s: %d, body lacks %q", path, w.Code, want)
		}
	}
	page := f.serve(http.MethodGet, "/docs", "").Body.String()
	if strings.Contains(page, "https://") || strings.Contains(page, "http://") {
		t.Errorf("the reference page loads something from outside:\n%s", page)
	}
}

// TestAdminListAccounts answers a page of accounts and refuses a bad page.
func TestAdminListAccounts(t *testing.T) {
	f := newFixture(t)
	f.accounts.EXPECT().List(gomock.Any(), "", 1, 50).Return([]domain.Account{testAccount()}, 1, nil)
	w := f.admin(http.MethodGet, "/admin/v1/accounts", "")
	var page struct {
		Data struct {
			Items []domain.Account `json:"items"`
			Total int              `json:"total"`
			Pages int              `json:"pages"`
		} `json:"data"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &page); err != nil || w.Code != http.StatusOK {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if len(page.Data.Items) != 1 || page.Data.Items[0].ID != testAccountID || page.Data.Total != 1 || page.Data.Pages != 1 {
		t.Fatalf("page %+v", page.Data)
	}
	if w := f.admin(http.MethodGet, "/admin/v1/accounts?pageSize=1000", ""); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "pageSize") {
		t.Fatalf("pageSize=1000: %d %s", w.Code, w.Body)
	}
}

// TestOpenAPIAdmitsWhatTheCodeAccepts pins the request schemas to what the
// handlers accept (the e2e contract check found each drift): an enum read
// in any case lists each value once, in its canonical case, and says
// "case-insensitive"; an exact lower-case enum stays exact; null limits, a
// BR Code's amount, the portal's item or page.
func TestOpenAPIAdmitsWhatTheCodeAccepts(t *testing.T) {
	t.Parallel()
	merchant, admin := openAPIOps(t, MerchantOpenAPI()), openAPIOps(t, AdminOpenAPI())
	for _, c := range []struct {
		op          map[string]any
		name        string
		want, avoid string
	}{
		{merchant["GET /subscriptions/list"], "subscriptions list", `"description":"case-insensitive","enum":["ACTIVE","CANCELED"]`, `"active"`},
		{merchant["POST /products/create"], "products create", `"status":{"description":"case-insensitive","enum":["ACTIVE","INACTIVE"]`, `"inactive"`},
		{admin["POST /transfers/{id}/review"], "review", `"enum":["approve","reject"]`, `"APPROVE"`},
		{merchant["POST /subaccount/set-limits"], "set-limits", `"daily":{"oneOf":[`, ""},
		{merchant["POST /transfer-pix/create"], "transfer-pix create", "required unless pixCopyPaste", ""},
		// A PIX key with its type and amount, or a BR Code (applyRequired).
		{merchant["POST /transfer-pix/create"], "transfer-pix shapes", `"allOf":[{"anyOf":[{"properties":{"amount":true,"pixKey":true,"pixKeyType":true},"required":["amount","pixKey","pixKeyType"]},{"properties":{"pixCopyPaste":true},"required":["pixCopyPaste"]}]}]`, ""},
		{merchant["GET /subaccount/portal/status"], "portal status", `"data":{"anyOf":[{"$ref":"#/components/schemas/PortalItem"},`, ""},
	} {
		b, _ := json.Marshal(c.op)
		if s := string(b); !strings.Contains(s, c.want) || c.avoid != "" && strings.Contains(s, c.avoid) {
			t.Errorf("%s: want %s (and not %q) in %s", c.name, c.want, c.avoid, s)
		}
	}
}
