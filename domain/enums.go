package domain

import (
	"slices"
	"strings"
)

// Enum is a closed set of string values, in their canonical case (the
// specification's): the one list a request's Validate checks a field
// against, or a record's constructor writes, and that the API's document
// shows as the field's enum. A list copied into a schema tag drifts from
// the rule it describes; a list both read cannot.
type Enum struct {
	// Values are the members, each once, in the order the document lists
	// them.
	Values []string
	// AnyCase says the server also reads a value in another case (and
	// keeps it in its canonical case); the document says so in words.
	AnyCase bool
}

// Exact is a set matched exactly.
func Exact(values ...string) Enum { return Enum{Values: values} }

// Folded is a set whose members are read in any case.
func Folded(values ...string) Enum { return Enum{Values: values, AnyCase: true} }

// Union is an exact set of every value of lists, each once, in the order
// first met (several products' statuses in one column).
func Union(lists ...[]string) Enum {
	var out []string
	for _, l := range lists {
		for _, v := range l {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return Exact(out...)
}

// Match answers the member v names (surrounding spaces ignored, and case
// too when AnyCase), and whether it names one.
func (e Enum) Match(v string) (string, bool) {
	v = strings.TrimSpace(v)
	for _, m := range e.Values {
		if v == m || e.AnyCase && strings.EqualFold(v, m) {
			return m, true
		}
	}
	return "", false
}

// Has says whether v is a member, exactly as written.
func (e Enum) Has(v string) bool { return slices.Contains(e.Values, v) }

// String lists the members for a message: "A, B or C".
func (e Enum) String() string {
	switch n := len(e.Values); n {
	case 0:
		return ""
	case 1:
		return e.Values[0]
	default:
		return strings.Join(e.Values[:n-1], ", ") + " or " + e.Values[n-1]
	}
}

// Enumerated is a request or record type some of whose string fields (or
// lists of strings) hold a closed set of values: Enums answers each such
// field's set by its JSON name. A field of a nested struct is named by
// that struct's own Enums. The type's Validate (a request) or its builder
// (a record) keeps to the same sets; the API's document reads them.
type Enumerated interface {
	Enums() map[string]Enum
}
