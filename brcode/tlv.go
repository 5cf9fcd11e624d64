package brcode

import (
	"fmt"
	"strconv"
	"strings"
)

// field is one TLV: a two-digit ID and its value.
type field struct {
	id    string
	value string
}

// writeTLV appends id, two-digit length and value, refusing values the
// two-digit length cannot describe.
func writeTLV(b *strings.Builder, id, value string) error {
	if len(value) > maxTLVValueLen {
		return encodef("field %s is %d characters long, the limit is %d", id, len(value), maxTLVValueLen)
	}
	fmt.Fprintf(b, "%s%02d%s", id, len(value), value)
	return nil
}

// parseTLVs splits s into fields, requiring every character to belong to
// one and rejecting repeated IDs, which would make the code ambiguous. It
// walks runes because EMV lengths count characters, and some issuers emit
// accented names as UTF-8.
func parseTLVs(s string) ([]field, error) {
	r := []rune(s)
	var out []field
	seen := map[string]bool{}
	for i := 0; i < len(r); {
		if len(r)-i < 4 {
			return nil, invalidf("truncated field at position %d", i)
		}
		id, lenStr := string(r[i:i+2]), string(r[i+2:i+4])
		if !isDigits(id) || !isDigits(lenStr) {
			return nil, invalidf("malformed field header %q at position %d", string(r[i:i+4]), i)
		}
		n, _ := strconv.Atoi(lenStr)
		i += 4
		if n == 0 {
			return nil, invalidf("field %s is empty", id)
		}
		if len(r)-i < n {
			return nil, invalidf("field %s claims %d characters but only %d remain", id, n, len(r)-i)
		}
		if seen[id] {
			return nil, invalidf("field %s appears twice", id)
		}
		seen[id] = true
		out = append(out, field{id: id, value: string(r[i : i+n])})
		i += n
	}
	return out, nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) > 0
}

func lookup(fields []field, id string) (string, bool) {
	for _, f := range fields {
		if f.id == id {
			return f.value, true
		}
	}
	return "", false
}
