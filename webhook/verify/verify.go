// Package verify checks Jangada webhook deliveries: both signatures over
// the raw body, and the delivery timestamp against replays. Merchants import
// it in their receivers:
//
//	body, _ := io.ReadAll(r.Body) // the raw bytes, before any JSON decoding
//	if err := verify.Verify(secret, r.Header, body, 5*time.Minute); err != nil {
//		http.Error(w, "bad signature", http.StatusBadRequest)
//		return
//	}
//	// Deduplicate on the envelope's id (= the webhook-id header): a
//	// delivery may arrive more than once; answer 2xx to duplicates.
//
// It depends only on the standard library.
package verify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultTolerance is used when Verify is given a tolerance of zero.
const DefaultTolerance = 5 * time.Minute

// Errors Verify returns; compare with errors.Is.
var (
	// ErrMissingHeader: a signature, id or timestamp header is absent.
	ErrMissingHeader = errors.New("verify: missing webhook signature headers")
	// ErrBadSecret: the secret is not a whsec_ secret.
	ErrBadSecret = errors.New("verify: the secret must be the endpoint's whsec_ secret")
	// ErrSignature: a signature does not match the body.
	ErrSignature = errors.New("verify: signature mismatch")
	// ErrTimestamp: the timestamp is malformed or outside the tolerance
	// (a replayed or badly delayed delivery).
	ErrTimestamp = errors.New("verify: timestamp outside the tolerance")
)

// Verify checks a delivery with the endpoint's secret (whsec_…): the
// x-jangada-signature (hex HMAC-SHA256 of the body keyed with the whole
// secret), the Standard Webhooks webhook-signature (HMAC-SHA256 of
// "{webhook-id}.{webhook-timestamp}.{body}" keyed with the decoded secret),
// both compared in constant time, and that webhook-timestamp is within
// tolerance of now. body must be the raw bytes received.
func Verify(secret string, headers http.Header, body []byte, tolerance time.Duration) error {
	return VerifyAt(secret, headers, body, tolerance, time.Now())
}

// VerifyAt is Verify with the current time given.
func VerifyAt(secret string, headers http.Header, body []byte, tolerance time.Duration, now time.Time) error {
	raw, ok := strings.CutPrefix(secret, "whsec_")
	if !ok {
		return ErrBadSecret
	}
	key, err := base64.StdEncoding.DecodeString(raw)
	if err != nil || len(key) == 0 {
		return ErrBadSecret
	}
	id, ts, sigs := headers.Get("webhook-id"), headers.Get("webhook-timestamp"), headers.Get("webhook-signature")
	legacy := headers.Get("x-jangada-signature")
	if id == "" || ts == "" || sigs == "" || legacy == "" {
		return ErrMissingHeader
	}
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return ErrTimestamp
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return ErrTimestamp
	}

	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	want := "sha256=" + hex.EncodeToString(m.Sum(nil))
	if !hmac.Equal([]byte(strings.ToLower(legacy)), []byte(want)) {
		return ErrSignature
	}

	m = hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + ts + "."))
	m.Write(body)
	expected := m.Sum(nil)
	// Several space-separated signatures may be sent (secret rotation):
	// one valid v1 signature is enough.
	for _, s := range strings.Fields(sigs) {
		v, sig, ok := strings.Cut(s, ",")
		if !ok || v != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(got, expected) {
			return nil
		}
	}
	return ErrSignature
}
