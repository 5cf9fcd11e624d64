package api

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	oasvalidator "github.com/pb33f/libopenapi-validator"
)

// TestOpenAPI30Rewrites checks each 3.1 construct OpenAPI30 rewrites, and
// that a property named after a keyword stays a property.
func TestOpenAPI30Rewrites(t *testing.T) {
	in := `{"openapi": "3.1.0", "jsonSchemaDialect": "x", "paths": {}, "components": {"schemas": {
	  "T": {"type": "object", "$schema": "s", "properties": {
	    "ref":   {"anyOf": [{"$ref": "#/components/schemas/U"}, {"type": "null"}]},
	    "list":  {"anyOf": [{"type": "array", "items": {"const": "A"}}, {"type": "null"}]},
	    "types": {"type": ["string", "null"], "examples": ["a", "b"]},
	    "pos":   {"type": "number", "exclusiveMinimum": 0},
	    "raw":   true,
	    "const": {"type": "string"}
	  }, "additionalProperties": false}}}}`
	out, err := OpenAPI30([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatal(err)
	}
	if d["openapi"] != "3.0.3" || d["jsonSchemaDialect"] != nil {
		t.Errorf("header: %v %v", d["openapi"], d["jsonSchemaDialect"])
	}
	T := d["components"].(map[string]any)["schemas"].(map[string]any)["T"].(map[string]any)
	props := T["properties"].(map[string]any)
	want := map[string]any{
		"ref":   map[string]any{"allOf": []any{map[string]any{"$ref": "#/components/schemas/U"}}, "nullable": true},
		"list":  map[string]any{"type": "array", "items": map[string]any{"enum": []any{"A"}}, "nullable": true},
		"types": map[string]any{"type": "string", "nullable": true, "example": "a"},
		"pos":   map[string]any{"type": "number", "minimum": 0.0, "exclusiveMinimum": true},
		"raw":   map[string]any{},
		"const": map[string]any{"type": "string"},
	}
	for name, w := range want {
		if !reflect.DeepEqual(props[name], w) {
			t.Errorf("%s: %v, want %v", name, props[name], w)
		}
	}
	if T["$schema"] != nil || T["additionalProperties"] != false {
		t.Errorf("T: %v", T)
	}
}

// TestOpenAPI30DocumentsAreValid proves the 3.0 views of both documents
// valid OpenAPI 3.0 and free of 3.1-only keywords.
func TestOpenAPI30DocumentsAreValid(t *testing.T) {
	for name, doc := range map[string][]byte{"merchant": MerchantOpenAPI(), "admin": AdminOpenAPI()} {
		t.Run(name, func(t *testing.T) {
			out, err := OpenAPI30(doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, kw := range []string{`"const"`, `"examples"`, `"type": "null"`, `"jsonSchemaDialect"`, `"$defs"`} {
				if strings.Contains(string(out), kw+":") || strings.Contains(string(out), kw+",") || strings.Contains(string(out), kw+"\n") {
					t.Errorf("the 3.0 view still has %s", kw)
				}
			}
			d, err := libopenapi.NewDocument(out)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if v := d.GetVersion(); v != "3.0.3" {
				t.Fatalf("version %q", v)
			}
			v, errs := oasvalidator.NewValidator(d)
			if len(errs) > 0 {
				t.Fatalf("validator: %v", errs)
			}
			if ok, verrs := v.ValidateDocument(); !ok {
				for _, e := range verrs {
					t.Errorf("invalid 3.0: %s (%s)", e.Message, e.Reason)
					for _, se := range e.SchemaValidationErrors {
						t.Errorf("  %s at %s", se.Reason, se.FieldPath)
					}
				}
			}
		})
	}
}
