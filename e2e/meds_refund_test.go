package e2e

import (
	"strings"
	"testing"
)

// TestRefundRefusedWhileMEDOpen: a refund of a deposit whose MED dispute
// is open would repay the payer twice (the dispute may return the money
// too): POST /refunds/create answers 400 in the error envelope naming the
// dispute, and nothing is reserved; once the dispute is REJECTED the
// refund goes ahead.
func TestRefundRefusedWhileMEDOpen(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	dep, _ := e.paidCharge(m, 30)
	e.fund(m, 100)
	id := e.openMED(m, dep, 30)
	e.waitMED(m, id, "OPEN")
	r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": dep, "amount": 30})
	if r.Status != 400 || r.Success || !strings.Contains(r.Message, "MED") {
		t.Fatalf("refund while its MED is open: %d %v %q, want a 400 naming the MED", r.Status, r.Success, r.Message)
	}
	if got := e.call(m.Key, "GET", "/v1/payment-pix/get/"+dep, nil).m(t); got["refund"] != nil {
		t.Fatalf("the refused refund wrote %v", got["refund"])
	}
	e.resolveMED(m, id, "REJECTED")
	e.waitMED(m, id, "REJECTED")
	if r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": dep, "amount": 30}); r.Status != 200 {
		t.Fatalf("refund after the MED was rejected: %d %s", r.Status, r.Message)
	}
}
