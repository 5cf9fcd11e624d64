package api

import (
	"bytes"
	"crypto/sha256"
	"net/http"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/service"
)

// A billing's body holds a card number and CVV: the fingerprint its claim
// stores must not be the plain hash of it (which a card's last four and
// brand let anyone reverse by trying every number), and must depend on the
// server's secret.
func TestIdempotencyFingerprintIsKeyed(t *testing.T) {
	t.Parallel()
	const body = `{"billingType":"CARD_CREDIT","creditCard":{"number":"4111111111111111","ccv":"123"}}`
	fingerprintWith := func(payloadKey string) []byte {
		f := newFixture(t, withConfig(func(c *config.Config) { c.PayloadKey = payloadKey })).authorized("billings/create")
		var got []byte
		f.idem.EXPECT().Claim(gomock.Any(), testAccountID, gomock.Any(), gomock.Any()).
			DoAndReturn(func(_ any, _ string, _ string, fp []byte) (service.IdempotencyClaim, error) {
				got = fp
				return service.IdempotencyClaim{Mismatch: true}, nil
			})
		w := f.serve("POST", "/v1/billings/create", body, "X-API-Key", testSecret, "Idempotency-Key", "k1")
		if w.Code != http.StatusBadRequest {
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
		return got
	}
	a, b := fingerprintWith("key-one"), fingerprintWith("key-two")
	plain := sha256.Sum256([]byte("POST /v1/billings/create\n" + body))
	if len(a) == 0 || bytes.Equal(a, plain[:]) {
		t.Fatalf("fingerprint is the plain hash of the body: %x", a)
	}
	if bytes.Equal(a, b) {
		t.Fatal("fingerprint does not depend on the server's secret")
	}
}
