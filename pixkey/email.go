package pixkey

import (
	"net/mail"
	"regexp"
	"strings"
)

// maxEmailLen is the DICT limit for e-mail keys.
const maxEmailLen = 77

// emailPattern is the DICT API's own e-mail pattern. It excludes quoted
// local parts and domain literals, which net/mail would accept but the
// directory would not.
var emailPattern = regexp.MustCompile(`^[a-z0-9.!#$%&'*+/=?^_` + "`" + `{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$`)

// normalizeEmail lower-cases the address because the DICT stores e-mail
// keys in lower case, then requires it to satisfy both the DICT pattern
// and RFC 5322 as net/mail reads it (which rules out "a..b@x" and
// ".a@x", allowed by the pattern alone).
func normalizeEmail(key string) (string, error) {
	k := strings.ToLower(key)
	if k == "" {
		return "", invalid("pixKey is not a valid e-mail address")
	}
	if len(k) > maxEmailLen {
		return "", invalid("pixKey e-mail must be at most 77 characters")
	}
	if !emailPattern.MatchString(k) {
		return "", invalid("pixKey is not a valid e-mail address")
	}
	addr, err := mail.ParseAddress(k)
	if err != nil || addr.Name != "" || addr.Address != k {
		return "", invalid("pixKey is not a valid e-mail address")
	}
	return k, nil
}
