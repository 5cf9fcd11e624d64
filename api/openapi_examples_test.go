package api

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
)

// TestEveryBodyHasAnExample holds every operation that reads a JSON body,
// in both APIs, to an Example: the document shows it, the required fields
// are derived from it and the contract test sends it.
func TestEveryBodyHasAnExample(t *testing.T) {
	t.Parallel()
	for _, api := range []struct {
		name   string
		routes []Route
		docs   map[string]Doc
	}{
		{"merchant", Routes(), merchantDocs},
		{"admin", adminRoutes(), adminDocs},
	} {
		for _, r := range api.routes {
			doc := api.docs[docKey(r)]
			if doc.Body != nil && doc.Example == nil {
				t.Errorf("%s %s reads a %T body but has no Example: add a realistic, valid one to its Doc", api.name, docKey(r), doc.Body)
			}
			if doc.Body == nil && (doc.Example != nil || len(doc.Alternatives) > 0) {
				t.Errorf("%s %s has an Example but no Body", api.name, docKey(r))
			}
		}
	}
}

// bodyDocs are the Docs of both APIs' routes that read a body, by
// "api METHOD /path".
func bodyDocs() map[string]Doc {
	out := map[string]Doc{}
	for api, table := range map[string]map[string]Doc{"merchant": merchantDocs, "admin": adminDocs} {
		for k, doc := range table {
			if doc.Body != nil {
				out[api+" "+k] = doc
			}
		}
	}
	return out
}

// TestExamplesValidate binds each example (and alternative) of a body
// whose type has a Validate as the handlers do and validates it: an
// example the server refuses would derive no required field. A partial
// update's example is the contract test's to send (its handler merges it
// through another path).
func TestExamplesValidate(t *testing.T) {
	t.Parallel()
	for k, doc := range bodyDocs() {
		if doc.Patch {
			continue
		}
		if _, _, err := requiredFields(doc.Body, docExamples(doc)); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
}

// TestRequiredTagsAgreeWithValidate holds the `jsonschema:"required"` tags
// of the request types to their Validate: a tag that calls a field
// required must name a field Validate refuses the example without (else
// the document refuses requests the server takes). Drop the tag, or add
// the rule to Validate when the spec requires the field.
func TestRequiredTagsAgreeWithValidate(t *testing.T) {
	t.Parallel()
	d := &apiDoc{schemas: map[string]*jsonschema.Schema{}, types: map[string]reflect.Type{}}
	r := d.reflector(true)
	for k, doc := range bodyDocs() {
		if doc.Patch {
			continue
		}
		req, ok, err := requiredFields(doc.Body, docExamples(doc))
		if !ok || err != nil {
			continue
		}
		for _, tagged := range r.Reflect(doc.Body).Required {
			if !slices.Contains(req.top, tagged) {
				t.Errorf("%s: %T tags %s required, but Validate takes the example without it", k, doc.Body, tagged)
			}
		}
	}
}

// TestDocumentRequiresWhatValidateRequires pins the derivation on bodies
// whose fields carry no required tag, one shape and several: the served
// document's required lists are Validate's, and a body of several shapes
// requires one shape's fields (an anyOf in an allOf).
func TestDocumentRequiresWhatValidateRequires(t *testing.T) {
	t.Parallel()
	ops := openAPIOps(t, MerchantOpenAPI())
	for _, c := range []struct {
		op, want string
	}{
		{"POST /billings/create", `"required":["method","amount","customer"]`},
		{"POST /subaccount/add-balance", `"required":["id","amount","externalReference"]`},
		{"POST /payment-links/create", `"required":["name"]`},
		{"POST /refunds/create", `"anyOf":[{"properties":{"transactionId":true},"required":["transactionId"]},{"properties":{"e2eId":true},"required":["e2eId"]}]`},
		{"POST /refunds/create", `"required":["amount"]`},
		// One level down: a schedule's payload needs its method and amount.
		{"POST /transfer-scheduled/create", `"required":["method","amount"]`},
		{"POST /bureau/dunnings/create", `"required":["contentBase64"]`},
	} {
		b, _ := json.Marshal(ops[c.op]["requestBody"])
		if !strings.Contains(string(b), c.want) {
			t.Errorf("%s: want %s in %s", c.op, c.want, b)
		}
	}
	// A field one shape needs and another does without is not required:
	// a PIX out names a key or a BR Code; a PIX automatic authorization a
	// fixedAmount or a maxAmount; a portal revoke an id or an
	// externalReference.
	for op, field := range map[string]string{
		"POST /transfer-pix/create":                 `"amount"`,
		"POST /payouts/create":                      `"pixKey"`,
		"POST /pix-automatic/authorizations/create": `"fixedAmount"`,
		"POST /subaccount/portal/revoke":            `"id"`,
	} {
		b, _ := json.Marshal(ops[op]["requestBody"])
		var rb struct {
			Content map[string]struct {
				Schema struct {
					Required []string `json:"required"`
				} `json:"schema"`
			} `json:"content"`
		}
		_ = json.Unmarshal(b, &rb)
		if slices.Contains(rb.Content["application/json"].Schema.Required, strings.Trim(field, `"`)) {
			t.Errorf("%s: %s is required, but another shape does without it", op, field)
		}
	}
	// Each shape's own fields are one member of the anyOf.
	for op, want := range map[string]string{
		"POST /pix-automatic/authorizations/create": `"anyOf":[{"properties":{"fixedAmount":true},"required":["fixedAmount"]},{"properties":{"maxAmount":true},"required":["maxAmount"]}]`,
		"POST /subaccount/portal/revoke":            `"anyOf":[{"properties":{"id":true},"required":["id"]},{"properties":{"externalReference":true},"required":["externalReference"]}]`,
		"POST /transfer-scheduled/create":           `{"properties":{"scheduledAt":true},"required":["scheduledAt"]}`,
	} {
		if b, _ := json.Marshal(ops[op]["requestBody"]); !strings.Contains(string(b), want) {
			t.Errorf("%s: want %s in %s", op, want, b)
		}
	}
}
