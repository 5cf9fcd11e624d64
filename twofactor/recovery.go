package twofactor

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// RecoveryCount is how many recovery codes an enrollment gets.
const RecoveryCount = 10

// recoveryAlphabet leaves out letters read as digits (I, L, O, U).
const recoveryAlphabet = "ABCDEFGHJKMNPQRSTVWXYZ0123456789"

// RecoveryCodes makes RecoveryCount codes to show once (XXXX-XXXX-XXXX,
// 60 random bits each) and the hashes to store instead of them.
func RecoveryCodes() (codes, hashes []string) {
	for range RecoveryCount {
		b := make([]byte, 12)
		rand.Read(b) // never fails (crypto/rand)
		var sb strings.Builder
		for i, v := range b {
			if i > 0 && i%4 == 0 {
				sb.WriteByte('-')
			}
			sb.WriteByte(recoveryAlphabet[int(v)%len(recoveryAlphabet)])
		}
		codes = append(codes, sb.String())
		hashes = append(hashes, HashRecovery(sb.String()))
	}
	return codes, hashes
}

// HashRecovery is the stored form of a recovery code: its SHA-256, after
// the code is normalised (case, spaces and dashes do not matter). The
// codes are random, 60 bits each, so a fast hash suffices, as for API keys.
func HashRecovery(code string) string {
	c := strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(strings.TrimSpace(code)))
	sum := sha256.Sum256([]byte(c))
	return hex.EncodeToString(sum[:])
}

// UseRecovery finds code among the stored hashes and answers them without
// it (a code is used once), or ok false.
func UseRecovery(hashes []string, code string) (left []string, ok bool) {
	h := HashRecovery(code)
	for i, stored := range hashes {
		if subtle.ConstantTimeCompare([]byte(stored), []byte(h)) == 1 {
			left = append(append(left, hashes[:i]...), hashes[i+1:]...)
			return left, true
		}
	}
	return hashes, false
}
