package document

import (
	"strings"
	"unicode"
)

// Digits removes the punctuation people type around documents
// ("529.982.247-25", "12.ABC.345/01DE-35") and upper-cases ASCII letters,
// so stored identifiers compare equal however they were entered. Any
// other character is kept, so that validation fails on it instead of
// silently accepting a mistyped value.
func Digits(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '.' || r == '-' || r == '/' || unicode.IsSpace(r):
			continue
		case 'a' <= r && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// checkDigit is the mod-11 rule shared by CPF and CNPJ: a remainder below 2
// gives 0, otherwise 11 minus the remainder. Each character is worth its
// ASCII code minus 48, which is the digit itself for 0-9 and extends to
// letters for the alphanumeric CNPJ.
func checkDigit(s string, weights []int) byte {
	sum := 0
	for i, w := range weights {
		sum += int(s[i]-'0') * w
	}
	r := sum % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

// allSame catches sequences such as 00000000000, which pass the mod-11
// check but are never issued.
func allSame(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] != s[0] {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
