package verify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// sign builds the headers the way the specification describes, written
// here independently of the server's signing code.
func sign(secret, id string, ts time.Time, body []byte) http.Header {
	h := http.Header{}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	h.Set("x-jangada-signature", "sha256="+hex.EncodeToString(m.Sum(nil)))
	key, _ := base64.StdEncoding.DecodeString(secret[len("whsec_"):])
	m = hmac.New(sha256.New, key)
	fmt.Fprintf(m, "%s.%d.%s", id, ts.Unix(), body)
	h.Set("webhook-id", id)
	h.Set("webhook-timestamp", fmt.Sprint(ts.Unix()))
	h.Set("webhook-signature", "v1,"+base64.StdEncoding.EncodeToString(m.Sum(nil)))
	return h
}

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

func TestVerify(t *testing.T) {
	body := []byte(`{"id":"dlv_1","event":"payment.paid","createdAt":"2026-01-01T00:00:00.000Z","data":{"id":"c1"}}`)
	now := time.Unix(1_800_000_000, 0)
	good := sign(secret, "dlv_1", now, body)
	if err := VerifyAt(secret, good, body, 0, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		mutate func(h http.Header) ([]byte, time.Time, string)
		want   error
	}{
		{"tampered body", func(h http.Header) ([]byte, time.Time, string) {
			return append([]byte{' '}, body...), now, secret
		}, ErrSignature},
		{"replayed later", func(h http.Header) ([]byte, time.Time, string) { return body, now.Add(6 * time.Minute), secret }, ErrTimestamp},
		{"from the future", func(h http.Header) ([]byte, time.Time, string) { return body, now.Add(-6 * time.Minute), secret }, ErrTimestamp},
		{"wrong secret", func(h http.Header) ([]byte, time.Time, string) {
			return body, now, "whsec_" + base64.StdEncoding.EncodeToString([]byte("another secret of 32 bytes......"))
		}, ErrSignature},
		{"not a whsec secret", func(h http.Header) ([]byte, time.Time, string) { return body, now, "abc" }, ErrBadSecret},
		{"missing legacy signature", func(h http.Header) ([]byte, time.Time, string) {
			h.Del("x-jangada-signature")
			return body, now, secret
		}, ErrMissingHeader},
		{"legacy signature only valid one", func(h http.Header) ([]byte, time.Time, string) {
			h.Set("webhook-signature", "v1,"+base64.StdEncoding.EncodeToString(make([]byte, 32)))
			return body, now, secret
		}, ErrSignature},
		{"timestamp moved (signed content)", func(h http.Header) ([]byte, time.Time, string) {
			h.Set("webhook-timestamp", fmt.Sprint(now.Unix()+1))
			return body, now, secret
		}, ErrSignature},
		{"id swapped", func(h http.Header) ([]byte, time.Time, string) {
			h.Set("webhook-id", "dlv_2")
			return body, now, secret
		}, ErrSignature},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := good.Clone()
			b, at, s := tc.mutate(h)
			if err := VerifyAt(s, h, b, 5*time.Minute, at); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	// Rotation: any one valid v1 signature among several is accepted.
	h := good.Clone()
	h.Set("webhook-signature", "v1,AAAA "+h.Get("webhook-signature"))
	if err := VerifyAt(secret, h, body, 0, now); err != nil {
		t.Fatal(err)
	}
}

func ExampleVerify() {
	handler := func(w http.ResponseWriter, r *http.Request) {
		body := make([]byte, r.ContentLength)
		r.Body.Read(body)
		if err := Verify("whsec_…your endpoint secret…", r.Header, body, 5*time.Minute); err != nil {
			http.Error(w, "invalid signature", http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusOK)
	}
	_ = handler
}
