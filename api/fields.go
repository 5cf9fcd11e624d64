package api

import (
	"strings"
	"unicode/utf8"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// The field checks every body shares; each error names its field.

// text trims a string field and checks its length in characters.
func text(field string, v *string, minLen, maxLen int, required bool) (string, error) {
	if v == nil {
		if required {
			return "", domain.Invalid(field, "is required")
		}
		return "", nil
	}
	s := strings.TrimSpace(*v)
	if n := utf8.RuneCountInString(s); n < minLen || n > maxLen {
		if minLen <= 1 {
			return "", domain.Invalid(field, "must have at most %d characters and not be empty", maxLen)
		}
		return "", domain.Invalid(field, "must have from %d to %d characters", minLen, maxLen)
	}
	return s, nil
}

// amount requires an amount within [lo, hi].
func amount(field string, v *money.Cents, lo, hi money.Cents) (money.Cents, error) {
	if v == nil {
		return 0, domain.Invalid(field, "is required")
	}
	if *v < lo || *v > hi {
		return 0, domain.Invalid(field, "must be between %s and %s", lo, hi)
	}
	return *v, nil
}
