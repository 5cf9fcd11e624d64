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
}

// requiredFields asks a body type's Validate which fields it requires:
// for each example (Example and the Alternatives), each top-level field is
// left out in turn, the rest bound into the body type as the handlers bind
// it (bindJSON) and validated; a field is required when every example has
// it and leaving it out of any of them is a 400 whose message begins with
// its name. The fields of an object field are probed the same way, one
// level down. A type without Validate requires nothing (ok false); an
// example that does not validate whole is an error (TestExamplesValidate).
func requiredFields(body any, examples []any) (req requiredOf, ok bool, err error) {
	validate, ok := validatorOf(reflect.TypeOf(body))
	if !ok || len(examples) == 0 {
		return req, ok, nil
	}
	var topSets []map[string]bool
	nestedSets := map[string][]map[string]bool{}
	for i, ex := range examples {
		fields, err := exampleFields(ex)
		if err != nil {
			return req, true, fmt.Errorf("example %d: %w", i, err)
		}
		if err := validate(fields); err != nil {
			return req, true, fmt.Errorf("example %d does not validate: %w", i, err)
		}
		top := map[string]bool{}
		for name := range fields {
			without := maps.Clone(fields)
			delete(without, name)
			if names(validate(without), name) {
				top[name] = true
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
		topSets = append(topSets, top)
	}
	req.top = intersect(topSets)
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
// An error leaves the schema as its tags made it: TestExamplesValidate
// reports it.
func applyRequired(s *jsonschema.Schema, doc Doc) {
	req, ok, err := requiredFields(doc.Body, docExamples(doc))
	if !ok || err != nil {
		return
	}
	s.Required = mergeRequired(s, s.Required, req.top)
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
