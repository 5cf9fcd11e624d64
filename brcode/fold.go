package brcode

import "strings"

// accents maps the accented letters found in Brazilian names to their
// base letter. BR Code readers vary in how they count non-ASCII lengths,
// so names and cities are folded to ASCII to keep the TLV lengths
// unambiguous.
var accents = map[rune]rune{
	'á': 'a', 'à': 'a', 'â': 'a', 'ã': 'a', 'ä': 'a',
	'é': 'e', 'è': 'e', 'ê': 'e', 'ë': 'e',
	'í': 'i', 'ì': 'i', 'î': 'i', 'ï': 'i',
	'ó': 'o', 'ò': 'o', 'ô': 'o', 'õ': 'o', 'ö': 'o',
	'ú': 'u', 'ù': 'u', 'û': 'u', 'ü': 'u',
	'ç': 'c', 'ñ': 'n',
	'Á': 'A', 'À': 'A', 'Â': 'A', 'Ã': 'A', 'Ä': 'A',
	'É': 'E', 'È': 'E', 'Ê': 'E', 'Ë': 'E',
	'Í': 'I', 'Ì': 'I', 'Î': 'I', 'Ï': 'I',
	'Ó': 'O', 'Ò': 'O', 'Ô': 'O', 'Õ': 'O', 'Ö': 'O',
	'Ú': 'U', 'Ù': 'U', 'Û': 'U', 'Ü': 'U',
	'Ç': 'C', 'Ñ': 'N',
}

// foldASCII strips accents, drops anything else outside printable ASCII,
// collapses runs of spaces and cuts the result to max characters, so the
// value always fits its field instead of making Encode fail on a long
// legal name.
func foldASCII(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(s) {
		if a, ok := accents[r]; ok {
			r = a
		}
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			space = true
			continue
		}
		if r < 0x21 || r > 0x7E {
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	out := b.String()
	if max > 0 && len(out) > max {
		out = strings.TrimRight(out[:max], " ")
	}
	return out
}

// printableASCII guards fields that must not be altered, such as the key
// and URL, where folding would silently point the payment elsewhere.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7E {
			return false
		}
	}
	return true
}

func alphanumeric(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}
