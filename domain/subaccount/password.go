package subaccount

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/crypto/argon2"

	"github.com/jangada/jangada/domain"
)

// Portal states. The legacy ones come from the previous platform and are
// reconfigured by a portal setup.
const (
	PortalNone                = "none"
	PortalActive              = "active"
	PortalDisabled            = "disabled"
	PortalPendingPassword     = "pending_password"
	PortalInvitePending       = "invite_pending"
	PortalPendingVerification = "pending_verification"
)

// PortalExists reports whether a portal is configured (active or legacy).
func PortalExists(state string) bool {
	return state != PortalNone && state != PortalDisabled && state != ""
}

// Password checks the spec's rule: at least 8 characters with an upper-case
// letter, a lower-case letter, a digit and a symbol. The upper bound keeps
// hashing cost bounded.
func Password(field string, v *string) (string, error) {
	if v == nil || *v == "" {
		return "", domain.Invalid(field, "is required")
	}
	p := *v
	if n := len([]rune(p)); n < 8 || n > 128 {
		return "", domain.Invalid(field, "must have from 8 to 128 characters")
	}
	var upper, lower, digit, symbol bool
	for _, r := range p {
		switch {
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsLower(r):
			lower = true
		case unicode.IsDigit(r):
			digit = true
		case unicode.IsSpace(r) || unicode.IsControl(r):
		default:
			symbol = true
		}
	}
	if !upper || !lower || !digit || !symbol {
		return "", domain.Invalid(field, "must contain an upper-case letter, a lower-case letter, a digit and a symbol")
	}
	return p, nil
}

// The argon2id parameters (docs/security.md): OWASP's recommended minimum
// for argon2id, 19 MiB of memory, 2 passes, 1 lane, a 16-byte random salt
// and a 32-byte key. They are written into each hash, so raising them later
// leaves existing hashes verifiable.
const (
	argonMemory  = 19 * 1024
	argonTime    = 2
	argonThreads = 1
	argonSalt    = 16
	argonKey     = 32
)

var b64 = base64.RawStdEncoding

// HashPassword returns the argon2id hash of p in the PHC string format:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>.
func HashPassword(p string) (string, error) {
	salt := make([]byte, argonSalt)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("subaccount: salt: %w", err)
	}
	key := argon2.IDKey([]byte(p), salt, argonTime, argonMemory, argonThreads, argonKey)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// VerifyPassword reports whether p matches the PHC string hash, with the
// parameters the hash carries, in constant time.
func VerifyPassword(hash, p string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return false
	}
	var m, t uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &threads); err != nil || m == 0 || t == 0 || threads == 0 || m > 1<<20 {
		return false
	}
	salt, err1 := b64.DecodeString(parts[4])
	key, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(key) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(p), salt, t, m, threads, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1
}
