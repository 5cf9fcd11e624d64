package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Signature is x-jangada-signature: "sha256=" + lower-case hex HMAC-SHA256
// of the raw body, keyed with the whole secret string.
func Signature(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// StandardSignature is the Standard Webhooks webhook-signature: "v1," +
// base64 HMAC-SHA256 of "{id}.{timestamp}.{body}", keyed with the decoded
// bytes after "whsec_".
func StandardSignature(secret, id string, ts time.Time, body []byte) string {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil {
		key = []byte(secret) // every secret we issue decodes; never sign with nothing
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + strconv.FormatInt(ts.Unix(), 10) + "."))
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
}
