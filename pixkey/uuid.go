package pixkey

import "strings"

// normalizeUUID accepts a random key in upper or lower case, with or
// without hyphens, and returns the lower-case hyphenated form the DICT
// issues. Any UUID version is accepted because providers differ.
func normalizeUUID(key string) (string, error) {
	k := strings.ToLower(key)
	if len(k) == 32 {
		k = k[:8] + "-" + k[8:12] + "-" + k[12:16] + "-" + k[16:20] + "-" + k[20:]
	}
	if len(k) != 36 {
		return "", invalid("pixKey is not a valid random key (UUID)")
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return "", invalid("pixKey is not a valid random key (UUID)")
			}
			continue
		}
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", invalid("pixKey is not a valid random key (UUID)")
		}
	}
	return k, nil
}
