package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/jangada/jangada/domain"
)

// The document's required fields of a request body are not written by
// hand: they are what the body's Validate refuses to do without. A
// hand-kept list drifts from the rules (a client generated from it would
// send {} that the server refuses); asking Validate itself cannot.

// requiredOf is what Validate requires of a body: its top-level fields,
// and for each object field the fields required inside it.
type requiredOf struct {
	top    []string
	nested map[string][]string
	// shapes are, when the examples need different fields beyond top
	// (a PIX key and its type, or a BR Code), what each one needs: a
	// request must satisfy one of them. A shape needs a field when leaving
	// it out is a 400, whichever field the message names ("pixKey is
	// required" when a BR Code's pixCopyPaste is left out).
	shapes [][]string
}

// requiredFields asks a body type's Validate which fields it requires:
// for each example (Example and the Alternatives), each top-level field is
// left out in turn, the rest bound into the body type as the handlers bind
// it (bindJSON) and validated; a field is required when every example has
// it and leaving it out of any of them is a 400 whose message begins with
// its name. Examples that need different fields are the body's shapes. The fields of an object field are probed the same way, one
// level down. A type without Validate requires nothing (ok false); an
// example that does not validate whole is an error (TestExamplesValidate).
func requiredFields(body any, examples []any) (req requiredOf, ok bool, err error) {
	validate, ok := validatorOf(reflect.TypeOf(body))
	if !ok || len(examples) == 0 {
		return req, ok, nil
	}
	var topSets, neededSets []map[string]bool
	nestedSets := map[string][]map[string]bool{}
	for i, ex := range examples {
		fields, err := exampleFields(ex)
		if err != nil {
			return req, true, fmt.Errorf("example %d: %w", i, err)
		}
		if err := validate(fields); err != nil {
			return req, true, fmt.Errorf("example %d does not validate: %w", i, err)
		}
		top, needed := map[string]bool{}, map[string]bool{}
		for name := range fields {
			without := maps.Clone(fields)
			delete(without, name)
			err := validate(without)
			if names(err, name) {
				top[name] = true
			}
			if errors.Is(err, domain.ErrInvalid) {
				needed[name] = true
			}
			inner, isObject := objectOf(fields[name])
			if !isObject {
				continue
			}
			sub := map[string]bool{}
			for innerName := range inner {
				innerWithout := maps.Clone(inner)
				delete(innerWithout, innerName)
				b, _ := json.Marshal(innerWithout)
				with := maps.Clone(fields)
				with[name] = b
				if names(validate(with), name+"."+innerName) {
					sub[innerName] = true
				}
			}
			nestedSets[name] = append(nestedSets[name], sub)
		}
		topSets, neededSets = append(topSets, top), append(neededSets, needed)
	}
	req.top = intersect(topSets)
	req.shapes = shapesOf(neededSets, req.top)
	req.nested = map[string][]string{}
	for name, sets := range nestedSets {
		// A shape that does without the object says nothing of its
		// fields; the shapes that send it must all need a field.
		if r := intersect(sets); len(r) > 0 {
			req.nested[name] = r
		}
	}
	return req, true, nil
}

// validatorOf finds a body type's Validate() (R, error) by reflection and
// returns a function that binds a JSON object into a new value of the type
// and validates it: the handlers' path (bindAndAct).
func validatorOf(t reflect.Type) (func(map[string]json.RawMessage) error, bool) {
	if t == nil || t.Kind() != reflect.Struct {
		return nil, false
	}
	m, ok := reflect.PointerTo(t).MethodByName("Validate")
	errType := reflect.TypeFor[error]()
	if !ok || m.Type.NumIn() != 1 || m.Type.NumOut() != 2 || m.Type.Out(1) != errType {
		return nil, false
	}
	return func(fields map[string]json.RawMessage) error {
		raw, err := json.Marshal(fields)
		if err != nil {
			return err
		}
		v := reflect.New(t)
		if err := bindJSON(raw, v.Interface()); err != nil {
			return err
		}
		out := v.MethodByName("Validate").Call(nil)
		err, _ = out[1].Interface().(error)
		return err
	}, true
}

// exampleFields is an example's top-level fields as JSON.
func exampleFields(ex any) (map[string]json.RawMessage, error) {
	raw, err := json.Marshal(ex)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, errors.New("not a JSON object")
	}
	return fields, nil
}

// objectOf reads a field's value as a JSON object, if it is one.
func objectOf(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	var inner map[string]json.RawMessage
	if err := json.Unmarshal(raw, &inner); err != nil || inner == nil {
		return nil, false
	}
	return inner, true
}

// names says whether err is a 400 about field: its message begins with the
// field's name, alone ("amount is required") or as the head of a path
// ("customer.name is required" names customer).
func names(err error, field string) bool {
	var de *domain.Error
	if !errors.As(err, &de) || !errors.Is(err, domain.ErrInvalid) {
		return false
	}
	return strings.HasPrefix(de.Message, field+" ") || strings.HasPrefix(de.Message, field+".")
}

// shapesOf is what each example needs beyond the fields all need, when
// every one needs something more and two of them differ; nil otherwise
// (one shape needing nothing more makes the alternatives say nothing).
func shapesOf(sets []map[string]bool, common []string) [][]string {
	var out [][]string
	for _, set := range sets {
		var extra []string
		for name := range set {
			if !slices.Contains(common, name) {
				extra = append(extra, name)
			}
		}
		if len(extra) == 0 {
			return nil
		}
		sort.Strings(extra)
		if !slices.ContainsFunc(out, func(o []string) bool { return slices.Equal(o, extra) }) {
			out = append(out, extra)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// intersect is the names every set holds, sorted.
func intersect(sets []map[string]bool) []string {
	if len(sets) == 0 {
		return nil
	}
	var out []string
	for name := range sets[0] {
		if !slices.ContainsFunc(sets[1:], func(s map[string]bool) bool { return !s[name] }) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// docExamples are a Doc's example and alternatives, the alternatives in
// name order.
func docExamples(doc Doc) []any {
	if doc.Example == nil {
		return nil
	}
	out := []any{doc.Example}
	for _, name := range slices.Sorted(maps.Keys(doc.Alternatives)) {
		out = append(out, doc.Alternatives[name])
	}
	return out
}

// applyRequired adds what Validate requires to a body's schema (beside its
// `jsonschema:"required"` tags), in the order of the schema's properties.
// A body of several shapes (requiredOf.shapes) says so with anyOf, each
// member the required fields of one shape. An error leaves the schema as
// its tags made it: TestExamplesValidate reports it.
func applyRequired(s *jsonschema.Schema, doc Doc) {
	req, ok, err := requiredFields(doc.Body, docExamples(doc))
	if !ok || err != nil {
		return
	}
	s.Required = mergeRequired(s, s.Required, req.top)
	// A body of several shapes requires the fields of one of them. The
	// anyOf sits in an allOf, and each member names its fields as
	// properties: a TypeScript generator then intersects the body's type
	// with the union of its shapes, where a bare anyOf beside properties
	// would make the whole body unknown.
	if len(req.shapes) > 0 {
		shapes := &jsonschema.Schema{}
		for _, shape := range req.shapes {
			member := &jsonschema.Schema{Required: mergeRequired(s, nil, shape), Properties: jsonschema.NewProperties()}
			for _, name := range member.Required {
				member.Properties.Set(name, &jsonschema.Schema{})
			}
			shapes.AnyOf = append(shapes.AnyOf, member)
		}
		s.AllOf = append(s.AllOf, shapes)
	}
	for name, inner := range req.nested {
		if p, found := s.Properties.Get(name); found && p.Properties != nil {
			p.Required = mergeRequired(p, p.Required, inner)
		}
	}
}

// mergeRequired is the union of two lists of s's fields, in the order of
// s's properties.
func mergeRequired(s *jsonschema.Schema, a, b []string) []string {
	want := map[string]bool{}
	for _, n := range slices.Concat(a, b) {
		want[n] = true
	}
	var out []string
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			if want[p.Key] {
				out = append(out, p.Key)
				delete(want, p.Key)
			}
		}
	}
	// A required name with no property (none today) keeps its place last.
	return append(out, slices.Sorted(maps.Keys(want))...)
}
