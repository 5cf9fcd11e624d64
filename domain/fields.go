package domain

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/jangada/jangada/document"
	"github.com/jangada/jangada/money"
)

// The field checks every request shares, from whichever caller (HTTP, a
// scheduled run, a test); each error names its field.

// Text trims a string field and checks its length in characters.
func Text(field string, v *string, minLen, maxLen int, required bool) (string, error) {
	if v == nil {
		if required {
			return "", Invalid(field, "is required")
		}
		return "", nil
	}
	s := strings.TrimSpace(*v)
	if n := utf8.RuneCountInString(s); n < minLen || n > maxLen {
		switch minLen {
		case 0:
			return "", Invalid(field, "must have at most %d characters", maxLen)
		case 1:
			return "", Invalid(field, "must have at most %d characters and not be empty", maxLen)
		}
		return "", Invalid(field, "must have from %d to %d characters", minLen, maxLen)
	}
	return s, nil
}

// OptionalText is Text for an optional field kept as a pointer (nil when absent).
func OptionalText(field string, v *string, minLen, maxLen int) (*string, error) {
	if v == nil {
		return nil, nil
	}
	s, err := Text(field, v, minLen, maxLen, false)
	return &s, err
}

// Amount requires an amount within [lo, hi].
func Amount(field string, v *money.Cents, lo, hi money.Cents) (money.Cents, error) {
	if v == nil {
		return 0, Invalid(field, "is required")
	}
	if *v < lo || *v > hi {
		return 0, Invalid(field, "must be between %s and %s", lo, hi)
	}
	return *v, nil
}

var emailPattern = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)

// Email requires an e-mail address of at most 254 characters; it returns it
// trimmed (accounts are found by e-mail case-insensitively).
func Email(field string, v *string) (string, error) {
	s, err := Text(field, v, 3, 254, true)
	if err != nil {
		return "", err
	}
	if !emailPattern.MatchString(s) {
		return "", Invalid(field, "must be an e-mail address")
	}
	return s, nil
}

// TaxID requires a valid CPF or CNPJ (alphanumeric CNPJ included), with or
// without punctuation; it returns the bare characters.
func TaxID(field string, v *string) (string, error) {
	if v == nil {
		return "", Invalid(field, "is required")
	}
	d, kind, ok := document.Classify(*v)
	if len(d) > 14 {
		return "", Invalid(field, "must have at most 14 characters")
	}
	if !ok || (kind == document.KindCPF && !document.ValidCPF(d)) || (kind == document.KindCNPJ && !document.ValidCNPJ(d)) {
		return "", Invalid(field, "must be a valid CPF or CNPJ")
	}
	return d, nil
}
