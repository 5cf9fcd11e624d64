package api

import (
	"encoding/json"
	"fmt"
)

// OpenAPI30 rewrites one of the OpenAPI 3.1 documents (MerchantOpenAPI,
// AdminOpenAPI) as OpenAPI 3.0.3, for the tools that read only 3.0 (the
// generator of the Go client, oapi-codegen). The served documents stay
// 3.1; this view says the same thing in 3.0's words:
//
//   - anyOf [X, {type: null}] and type [X, "null"] become X with nullable
//     (a reference: allOf [X] with nullable, as 3.0 ignores a $ref's siblings);
//   - const v becomes enum [v]; examples [a, …] becomes example a;
//   - a numeric exclusiveMinimum/Maximum n becomes minimum/maximum n with
//     the boolean form;
//   - a boolean schema (true: any value, as json.RawMessage reflects) becomes
//     {} (false: {not: {}});
//   - a request body's named examples (the Example and its Alternatives)
//     become its one example, the Example (the keyword check of
//     TestOpenAPI30DocumentsAreValid keeps "examples" out of the view),
//     and the allOf holding the anyOf of its shapes' required fields is
//     dropped (a validation rule only, which a generator would make a
//     union type of);
//   - jsonSchemaDialect, $schema, $id and $comment are dropped, and so is
//     the webhooks section (3.0 has none; a 3.0 client generator calls the
//     API, it receives no webhook).
//
// Anything else is 3.0 already; TestOpenAPI30 proves the result loads as a
// valid 3.0 document.
func OpenAPI30(doc []byte) ([]byte, error) {
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("openapi30: %w", err)
	}
	d["openapi"] = "3.0.3"
	delete(d, "jsonSchemaDialect")
	delete(d, "webhooks")
	walkSchemas(d, downgradeSchema)
	oneExample(d)
	return json.MarshalIndent(d, "", "  ")
}

// oneExample turns each request body's named examples into its one
// example, the one named "example" (operation in buildOpenAPI), and drops
// the allOf of its shapes (applyRequired).
func oneExample(d map[string]any) {
	paths, _ := d["paths"].(map[string]any)
	for _, item := range paths {
		ops, _ := item.(map[string]any)
		for _, op := range ops {
			o, _ := op.(map[string]any)
			body, _ := o["requestBody"].(map[string]any)
			content, _ := body["content"].(map[string]any)
			for _, media := range content {
				m, _ := media.(map[string]any)
				if schema, ok := m["schema"].(map[string]any); ok {
					delete(schema, "allOf")
				}
				named, ok := m["examples"].(map[string]any)
				if !ok {
					continue
				}
				delete(m, "examples")
				if ex, ok := named["example"].(map[string]any); ok {
					m["example"] = ex["value"]
				}
			}
		}
	}
}

// walkSchemas calls fix on every schema of a document: the values of
// "schema" keys (parameters, media types) and of components.schemas, and,
// within a schema, each subschema. fix sees a schema before its subschemas.
func walkSchemas(node any, fix func(map[string]any)) {
	switch n := node.(type) {
	case map[string]any:
		for k, v := range n {
			switch k {
			case "schema":
				n[k] = schemaTree(v, fix)
				continue
			case "schemas":
				if m, ok := v.(map[string]any); ok {
					for name, s := range m {
						m[name] = schemaTree(s, fix)
					}
					continue
				}
			}
			walkSchemas(v, fix)
		}
	case []any:
		for _, v := range n {
			walkSchemas(v, fix)
		}
	}
}

// schemaTree applies fix to the schema node and to every subschema under
// it, knowing which keys hold schemas (so that a property named "const" or
// "type" is a name, not a keyword), and answers the node to keep: a boolean
// schema becomes its object form, which 3.0 requires.
func schemaTree(node any, fix func(map[string]any)) any {
	switch b := node.(type) {
	case bool:
		if b {
			return map[string]any{}
		}
		return map[string]any{"not": map[string]any{}}
	case map[string]any:
	default:
		return node
	}
	s := node.(map[string]any)
	fix(s)
	for _, k := range []string{"items", "additionalProperties", "not"} {
		// additionalProperties: false is 3.0 as well (not a schema there).
		if sub, ok := s[k]; ok && !(k == "additionalProperties" && sub == false) {
			s[k] = schemaTree(sub, fix)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := s[k].([]any); ok {
			for i, sub := range list {
				list[i] = schemaTree(sub, fix)
			}
		}
	}
	for _, k := range []string{"properties", "patternProperties"} {
		if props, ok := s[k].(map[string]any); ok {
			for name, sub := range props {
				props[name] = schemaTree(sub, fix)
			}
		}
	}
	return s
}

// downgradeSchema rewrites one schema's 3.1-only keywords (not its
// subschemas: schemaTree visits those).
func downgradeSchema(s map[string]any) {
	for _, k := range []string{"$schema", "$id", "$comment"} {
		delete(s, k)
	}
	if v, ok := s["const"]; ok {
		delete(s, "const")
		s["enum"] = []any{v}
	}
	if ex, ok := s["examples"].([]any); ok {
		delete(s, "examples")
		if len(ex) > 0 {
			s["example"] = ex[0]
		}
	}
	for excl, bound := range map[string]string{"exclusiveMinimum": "minimum", "exclusiveMaximum": "maximum"} {
		if n, ok := s[excl].(float64); ok {
			s[bound], s[excl] = n, true
		}
	}
	if types, ok := s["type"].([]any); ok {
		var rest []any
		for _, t := range types {
			if t == "null" {
				s["nullable"] = true
			} else {
				rest = append(rest, t)
			}
		}
		if len(rest) == 1 {
			s["type"] = rest[0]
		} else {
			delete(s, "type") // several types: 3.0 says it with anyOf
			var alts []any
			for _, t := range rest {
				alts = append(alts, map[string]any{"type": t})
			}
			s["anyOf"] = alts
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		list, ok := s[k].([]any)
		if !ok {
			continue
		}
		var rest []any
		for _, alt := range list {
			if m, ok := alt.(map[string]any); ok && len(m) == 1 && m["type"] == "null" {
				continue
			}
			rest = append(rest, alt)
		}
		if len(rest) == len(list) {
			continue
		}
		s["nullable"] = true
		if len(rest) != 1 {
			s[k] = rest
			continue
		}
		delete(s, k)
		only, _ := rest[0].(map[string]any)
		if _, ref := only["$ref"]; ref {
			s["allOf"] = []any{only}
			continue
		}
		for key, v := range only {
			if _, taken := s[key]; !taken {
				s[key] = v
			}
		}
		// The merged alternative's own keywords are 3.1 too.
		downgradeSchema(s)
	}
}
