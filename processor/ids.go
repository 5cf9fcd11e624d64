package processor

import (
	"crypto/rand"
	"strings"
	"time"
)

// TxID derives a charge's BR Code txid (32 alphanumerics) from its id.
func TxID(id string) string { return strings.ReplaceAll(id, "-", "") }

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// EndToEndID builds a PIX end-to-end id: E, the 8-digit ISPB, yyyyMMddHHmm
// in UTC and 11 random alphanumerics (32 characters).
func EndToEndID(ispb string, at time.Time) string {
	b := make([]byte, 11)
	rand.Read(b)
	for i := range b {
		b[i] = alnum[int(b[i])%len(alnum)]
	}
	return "E" + ispb + at.UTC().Format("200601021504") + string(b)
}
