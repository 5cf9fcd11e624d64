package e2e

import "testing"

// A refund of a split charge takes the split back from the partner (its
// locked money included): afterwards the merchant and the partner together
// are no richer than before the deposit came in, and the platform absorbs
// only its own fee. When the partner cannot give its share back, the refund
// is refused with a 400 and nothing moves.
func TestSplitRefundTakesTheSplitBack(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, partner := e.merchant(), e.merchant()
	e.fund(m, 1) // pays the refund's PIX out fee
	pay := func(description string) string {
		c := e.createCharge(m, map[string]any{"amount": 100, "description": description, "splitUser": partner.Email, "splitTax": 100})
		id := c["id"].(string)
		e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", nil)
		e.waitStatus(m, id, "COMPLETED")
		return id
	}
	id := pay("Split total")
	// Net 99.50, all of it to the partner (locked 24 h); the merchant keeps 0.
	wantBalance(t, e, m, 1, 0, 1)
	wantBalance(t, e, partner, 99.5, 0, 0)

	r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": id, "amount": 100})
	if r.Status != 200 {
		t.Fatalf("refund: %d %s", r.Status, r.Message)
	}
	if block := r.m(t)["refund"].(map[string]any); block["splitReturned"] != 99.5 || block["debitNet"] != 0.5 {
		t.Fatalf("refund block: %v", block)
	}
	wantBalance(t, e, partner, 0, 99.5, 0) // its split is reserved
	e.waitRefund(m, id, "PROCESSING")
	if r := e.call(m.Key, "POST", "/v1/sandbox/refunds/"+id+"/settle", nil); r.Status != 200 {
		t.Fatalf("settle: %d %s", r.Status, r.Message)
	}
	e.waitRefund(m, id, "COMPLETED")
	wantBalance(t, e, m, 0.5, 0, 0.5)   // 1 − the 0.50 PIX out fee
	wantBalance(t, e, partner, 0, 0, 0) // gave its 99.50 back
	st := e.call(partner.Key, "GET", "/v1/account/transactions?search=Split%20returned", nil).m(t)
	if items := st["items"].([]any); len(items) != 1 || items[0].(map[string]any)["status"] != "COMPLETED" || items[0].(map[string]any)["amount"] != 99.5 {
		t.Fatalf("partner statement: %v", st)
	}

	// A partner that no longer holds its split: the refund is refused.
	id2 := pay("Split total 2")
	if r := e.admin("POST", "/accounts/"+partner.ID+"/adjustments", map[string]any{"amount": -99.5, "description": "chargeback elsewhere"}); r.Status != 200 {
		t.Fatalf("adjust partner: %d %s", r.Status, r.Message)
	}
	e.fund(m, 1)
	r = e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": id2, "amount": 100})
	if r.Status != 400 || r.Message != "the split partner cannot give back its share of 99.50, so the refund cannot be made" {
		t.Fatalf("refund without the partner's money: %d %s", r.Status, r.Message)
	}
	wantBalance(t, e, m, 1.5, 0, 1.5)
	if got := e.call(m.Key, "GET", "/v1/payment-pix/get/"+id2, nil).m(t); got["refund"] != nil {
		t.Fatalf("a refused refund left a block: %v", got["refund"])
	}
	e.verifyLedger()
}
