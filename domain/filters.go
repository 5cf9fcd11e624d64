package domain

import "strings"

// OneOf reads an enumerated query value (a list's status filter, a type):
// trimmed and upper-cased; "" when absent; otherwise it must be one of
// values, or the error names field and lists them ("must be A or B", or
// "must be one of A, B, C").
func OneOf(field, v string, values ...string) (string, error) {
	u := strings.ToUpper(strings.TrimSpace(v))
	if u == "" {
		return "", nil
	}
	for _, ok := range values {
		if u == ok {
			return u, nil
		}
	}
	if len(values) == 2 {
		return "", Invalid(field, "must be %s or %s", values[0], values[1])
	}
	return "", Invalid(field, "must be one of %s", strings.Join(values, ", "))
}
