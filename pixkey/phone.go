package pixkey

import "strings"

// normalizePhone accepts the ways Brazilians write a phone number — with or
// without +55, with or without the country code's plus sign, with
// parentheses, spaces, dots and hyphens — and returns the E.164 form the
// DICT stores. Only Brazilian numbers can be Pix keys.
func normalizePhone(key string) (string, error) {
	hasPlus := strings.HasPrefix(key, "+")
	if hasPlus {
		key = key[1:]
	}
	var b strings.Builder
	for _, r := range key {
		switch {
		case '0' <= r && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '(' || r == ')' || r == '-' || r == '.':
		default:
			return "", invalid("pixKey is not a valid phone number")
		}
	}
	d := b.String()

	// Lengths never overlap: DDD plus number is 10 or 11 digits, and with
	// the country code 12 or 13, so DDD 55 cannot be mistaken for +55.
	switch {
	case hasPlus || len(d) == 12 || len(d) == 13:
		if !strings.HasPrefix(d, "55") {
			return "", invalid("pixKey must be a Brazilian phone number (+55)")
		}
		d = d[2:]
	}
	if len(d) != 10 && len(d) != 11 {
		return "", invalid("pixKey phone number must have a 2-digit area code and an 8 or 9-digit number")
	}
	if d[0] == '0' || d[1] == '0' {
		return "", invalid("pixKey phone number has an invalid area code")
	}
	if len(d) == 11 && d[2] != '9' {
		return "", invalid("pixKey 9-digit mobile number must start with 9")
	}
	return "+55" + d, nil
}
