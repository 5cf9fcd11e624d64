package e2e

import (
	"strings"
	"testing"
)

// TestBillingRefundRefusedByTheProcessorReturnsTheMoney: the sandbox
// refuses a billing refund whose amount ends in ,13 (its documented
// rule). The refund is booked, asked of the processor by its workflow
// (never inside the request's transaction), refused, and compensated: the
// answer is a 400 (never a billing claiming the refund), the billing is
// RECEIVED with nothing refunded and the refund FAILED, the merchant's
// balance as before. The same Idempotency-Key answers the same refusal
// and refunds nothing. Refunds after it still return exactly what the
// payment credited, and the ledger holds.
func TestBillingRefundRefusedByTheProcessorReturnsTheMoney(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	id := e.createBilling(m, map[string]any{"method": "BOLETO", "amount": 150, "customer": billingCustomer})["id"].(string)
	if r := e.call(m.Key, "POST", "/v1/sandbox/billings/"+id+"/pay", nil); r.Status != 200 {
		t.Fatalf("pay: %d %s", r.Status, r.Message)
	}
	e.waitBilling(m, id, "RECEIVED")
	wantBalance(t, e, m, 148.01, 0, 0)

	hdr := map[string]string{"X-API-Key": m.Key, "Idempotency-Key": "refused-" + id}
	for range 2 {
		r := e.request("POST", "/v1/billings/refund", hdr, map[string]any{"id": id, "amount": 50.13})
		if r.Status != 400 || !strings.Contains(r.Message, "refused") {
			t.Fatalf("refused refund: %d %s", r.Status, r.Message)
		}
	}
	got := e.call(m.Key, "GET", "/v1/billings/get/"+id, nil).m(t)
	refunds, _ := got["refunds"].([]any)
	if got["status"] != "RECEIVED" || got["refundedAmount"] != 0.0 || len(refunds) != 1 || refunds[0].(map[string]any)["status"] != "FAILED" {
		t.Fatalf("billing after the refused refund: %v", got)
	}
	wantBalance(t, e, m, 148.01, 0, 0) // the booked money came back, exactly
	e.verifyLedger()

	r := e.call(m.Key, "POST", "/v1/billings/refund", map[string]any{"id": id, "amount": 50})
	if r.Status != 200 || r.m(t)["status"] != "PARTIALLY_REFUNDED" || r.m(t)["refundedAmount"] != 50.0 {
		t.Fatalf("accepted refund: %d %s %v", r.Status, r.Message, r.m(t))
	}
	if refunds := r.m(t)["refunds"].([]any); len(refunds) != 2 || refunds[1].(map[string]any)["status"] != "COMPLETED" {
		t.Fatalf("refunds after the accepted one: %v", refunds)
	}
	r = e.call(m.Key, "POST", "/v1/billings/refund", map[string]any{"id": id})
	if r.Status != 200 || r.m(t)["status"] != "REFUNDED" || r.m(t)["refundedAmount"] != 150.0 {
		t.Fatalf("refund of the rest: %d %s", r.Status, r.Message)
	}
	wantBalance(t, e, m, 0, 0, 0) // what the payment credited, returned exactly
	e.verifyLedger()
}
