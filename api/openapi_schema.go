package api

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/invopop/jsonschema"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/money"
)

// reflector makes the JSON Schema reflector of request bodies (forRequest:
// inline, fields optional unless tagged required, unknown fields allowed as
// bind ignores them) or of answers (named components, fields required
// unless omitempty, no unknown fields: the e2e validation then catches an
// answer that drifted from its type).
func (d *apiDoc) reflector(forRequest bool) *jsonschema.Reflector {
	return &jsonschema.Reflector{
		Anonymous:                  true,
		DoNotReference:             forRequest,
		RequiredFromJSONSchemaTags: forRequest,
		AllowAdditionalProperties:  forRequest,
		Mapper:                     mapType,
		Namer:                      d.name,
	}
}

// mapType gives the wire types their schema: money is a JSON number of BRL,
// times are RFC 3339 strings, raw JSON and any are any value.
func mapType(t reflect.Type) *jsonschema.Schema {
	switch t {
	case reflect.TypeFor[money.Cents]():
		return twoDecimals("BRL")
	case reflect.TypeFor[money.Percent]():
		return twoDecimals("percent")
	case reflect.TypeFor[domain.Time]():
		return &jsonschema.Schema{Type: "string", Format: "date-time"}
	case reflect.TypeFor[billing.CardField]():
		return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "integer"}}, Description: `a string or a number ("05" or 5)`}
	case reflect.TypeFor[json.RawMessage]():
		return &jsonschema.Schema{}
	// Crypto: an amount of the currency, at its precision.
	case reflect.TypeFor[domain.CryptoAmount]():
		return &jsonschema.Schema{Type: "number", Description: "an amount of payCurrency, at its precision (up to 8 decimal places)"}
	}
	return nil
}

// twoDecimals is the schema of an amount of unit with at most two decimal
// places, the server's rule (money.Cents and money.Percent refuse a value
// that is not an exact multiple of 0.01, 10.001 or 1e-3, with a 400 naming
// the field). It is said with the format decimal of the OpenAPI format
// registry and its places in x-decimal-places, not with multipleOf: 0.01,
// which a validator that divides in binary floating point (Ajv) refuses
// for amounts the server takes (19.99 / 0.01 is not an integer there).
func twoDecimals(unit string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "number", Format: "decimal",
		Description: unit + ", at most two decimal places: more is a 400 naming the field"}
	s.Extras = map[string]any{"x-decimal-places": 2}
	return s
}

// name is a component's name: the Go type's, capitalised, generics and
// package clashes spelled out.
func (d *apiDoc) name(t reflect.Type) string {
	n := t.Name()
	if i := strings.IndexByte(n, '['); i >= 0 {
		n = n[:i]
	}
	r := []rune(n)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	n = string(r)
	pkg := t.PkgPath()
	if pkg == "" { // a basic or unnamed type: never a component of its own
		return n
	}
	if prev, taken := d.types[n]; taken && prev != t {
		short := []rune(pkg[strings.LastIndex(pkg, "/")+1:])
		short[0] = unicode.ToUpper(short[0])
		n = string(short) + n
	}
	d.types[n] = t
	return n
}

// inline is a request type's schema, with no references, its enums the
// domain's (enumInline).
func (d *apiDoc) inline(v any) *jsonschema.Schema {
	s := d.req.Reflect(v)
	s.Version = ""
	enumInline(reflect.TypeOf(v), s)
	return s
}

// named is an answer type's schema: a reference to its component, every
// type it uses also a component.
func (d *apiDoc) named(v any) any {
	s := d.resp.Reflect(v)
	for name, def := range s.Definitions {
		rewriteRefs(def)
		d.schemas[name] = def
	}
	d.nullables()
	d.enumComponents()
	if s.Ref != "" {
		return map[string]any{"$ref": strings.Replace(s.Ref, "#/$defs/", "#/components/schemas/", 1)}
	}
	// A type the mapper answered (money, time) or a basic one.
	s.Version, s.Definitions = "", nil
	return s
}

// rewriteRefs points the reflector's $defs references at the components.
func rewriteRefs(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	s.Ref = strings.Replace(s.Ref, "#/$defs/", "#/components/schemas/", 1)
	for _, sub := range slices.Concat(s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems) {
		rewriteRefs(sub)
	}
	rewriteRefs(s.Items)
	rewriteRefs(s.AdditionalProperties)
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			rewriteRefs(p.Value)
		}
	}
}

// nullables marks as nullable the answer fields that encode as null: a nil
// pointer, slice or map without omitempty.
func (d *apiDoc) nullables() {
	for name, t := range d.types {
		s := d.schemas[name]
		if s == nil || s.Properties == nil || t.Kind() != reflect.Struct {
			continue
		}
		for _, f := range jsonFields(t) {
			p, ok := s.Properties.Get(f.name)
			if !ok || !f.nullable || len(p.AnyOf) == 2 && p.AnyOf[1].Type == "null" {
				continue
			}
			s.Properties.Set(f.name, &jsonschema.Schema{AnyOf: []*jsonschema.Schema{p, {Type: "null"}}})
		}
	}
}

type jsonField struct {
	name     string
	nullable bool
}

// jsonFields lists a struct's JSON fields as encoding/json sees them,
// embedded structs flattened.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, jsonFields(ft)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		omit := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			out = append(out, jsonField{name: name, nullable: !omit})
		default:
			out = append(out, jsonField{name: name})
		}
	}
	return out
}

// queryParams turns a query struct into parameters.
func (d *apiDoc) queryParams(q any) []any {
	s := d.inline(q)
	var out []any
	if s.Properties == nil {
		return out
	}
	for p := s.Properties.Oldest(); p != nil; p = p.Next() {
		param := map[string]any{"name": p.Key, "in": "query", "schema": p.Value}
		if slices.Contains(s.Required, p.Key) {
			param["required"] = true
		}
		if p.Value.Description != "" {
			param["description"] = p.Value.Description
		}
		out = append(out, param)
	}
	return out
}

// openAPIPath writes gin's :id and *name as {id} and {name}.
