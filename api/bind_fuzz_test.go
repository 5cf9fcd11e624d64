package api

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
)

// bindAndValidate runs one create route's binding and validation on body,
// exactly as the create handler does, and returns the status it would map
// the outcome to (200 when the request is valid).
func bindAndValidate[R any, B any, PB validator[R, B]](body []byte) int {
	w := httptest.NewRecorder()
	c, _ := gin.CreateTestContext(w)
	c.Request = httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	var b B
	if err := bind(c, &b); err != nil {
		return statusOf(err)
	}
	if _, err := PB(&b).Validate(); err != nil {
		return statusOf(err)
	}
	return http.StatusOK
}

// createBodies runs every create route's binding and validation.
var createBodies = map[string]func([]byte) int{
	"payment-pix":        bindAndValidate[domain.NewCharge, domain.ChargeRequest],
	"transfer-pix":       bindAndValidate[domain.NewTransfer, domain.TransferRequest],
	"transfer-internal":  bindAndValidate[domain.NewInternal, domain.InternalRequest],
	"refunds":            bindAndValidate[domain.NewRefund, domain.RefundRequest],
	"transfer-scheduled": bindAndValidate[schedule.NewSchedule, schedule.CreateRequest],
	"webhooks":           bindAndValidate[domain.EndpointPatch, domain.EndpointRequest],
	"admin-accounts":     bindAndValidate[domain.NewAccount, domain.AccountRequest],
	"admin-keys":         bindAndValidate[domain.NewKey, domain.KeyRequest],
	"admin-adjustments":  bindAndValidate[domain.NewAdjustment, domain.AdjustmentRequest],
}

// FuzzCreateBodies: whatever the body, binding and validation of every
// create route answer a success or a 4xx, never a 5xx or a panic. `go test`
// runs the seeds; `go test -fuzz FuzzCreateBodies ./api/` explores.
func FuzzCreateBodies(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `[]`, `null`, `"x"`, `{"amount":`, `{"amount": 10.5, "description": "Pedido 1"}`,
		`{"amount": 1e309}`, `{"amount": -0.001}`, `{"amount": "10"}`, `{"amount": 10.123}`,
		`{"amount": 10, "description": "a\u0000b"}`, `{"description": "\ud800"}`, "{\"description\": \"\xff\xfe\"}",
		`{"payer": {"name": "Ana", "document": "529.982.247-25"}}`, `{"payer": []}`, `{"payer": {"document": 5}}`,
		`{"pixKey": "a@b.co", "pixKeyType": "EMAIL", "amount": 1}`, `{"pixCopyPaste": "000201"}`,
		`{"recipientEmail": "x@y.com", "amount": 0.01}`, `{"transactionId": "t", "amount": 1, "nature": "ORIGINAL"}`,
		`{"triggerType": "RECURRING", "recurrenceRule": {"interval": "weekly", "time": "25:99"}, "payload": {"method": "interna"}}`,
		`{"url": "https://example.com", "events": ["*", "payment.*", "\u0000"]}`, `{"permissions": ["*"], "ipAllowlist": ["::1/129"]}`,
		`{"splitTax": 100.001, "splitUser": "a@b.c"}`, `{"expirationSeconds": 9223372036854775808}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for name, run := range createBodies {
			if status := run(body); status != http.StatusOK && (status < 400 || status > 499) {
				t.Fatalf("%s: body %q answered %d", name, body, status)
			}
		}
	})
}

// NUL characters in a body field are a 400 naming the field, never a
// database error.
func TestBodyFieldsRefuseNUL(t *testing.T) {
	t.Parallel()
	w := httptest.NewRecorder()
	c, _ := gin.CreateTestContext(w)
	c.Request = httptest.NewRequest(http.MethodPost, "/", bytes.NewBufferString(`{"amount": 10, "description": "a\u0000b", "payer": {"name": "x\u0000"}}`))
	var b domain.ChargeRequest
	err := bind(c, &b)
	if statusOf(err) != http.StatusBadRequest || err.Error() != "description must not contain NUL characters" {
		t.Fatalf("got %v", err)
	}
}
