package e2e

import (
	"strings"
	"sync"
	"testing"
)

// paidCharge creates and pays a charge, returning its id and endToEndId.
func (e *env) paidCharge(m merchant, amount float64) (string, string) {
	e.t.Helper()
	c := e.createCharge(m, map[string]any{"amount": amount, "description": "Venda"})
	id := c["id"].(string)
	e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", nil)
	done := e.waitStatus(m, id, "COMPLETED")
	return id, done["endToEndId"].(string)
}

func (e *env) waitRefund(m merchant, ref, want string) map[string]any {
	e.t.Helper()
	var got map[string]any
	eventually(e.t, "refund of "+ref+" to be "+want, func() bool {
		r := e.call(m.Key, "GET", "/v1/refunds/get/"+ref, nil)
		got = r.m(e.t)
		block, _ := got["refund"].(map[string]any)
		return block != nil && block["status"] == want
	})
	return got
}

func TestRefundCompletes(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	id, e2e := e.paidCharge(m, 100) // merchant keeps 99.50 (locked)
	e.fund(m, 10)
	for _, bad := range []map[string]any{
		{"amount": 100},
		{"transactionId": id, "amount": 50},
		{"transactionId": id, "amount": 100, "nature": "FRAUDE"},
		{"transactionId": id, "amount": "100"},
	} {
		if r := e.call(m.Key, "POST", "/v1/refunds/create", bad); r.Status != 400 {
			t.Errorf("refund %v: %d %s", bad, r.Status, r.Message)
		}
	}
	if r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": "nope", "amount": 100}); r.Status != 404 {
		t.Fatalf("unknown deposit: %d", r.Status)
	}
	r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"e2eId": e2e, "amount": 100, "refundId": "DEV123", "description": "Cliente desistiu"})
	if r.Status != 200 {
		t.Fatalf("refund: %d %s", r.Status, r.Message)
	}
	block := r.m(t)["refund"].(map[string]any)
	if block["debitNet"] != 100.0 || block["depositNet"] != 99.5 || block["transferFee"] != 0.5 || block["nature"] != "ORIGINAL" || block["refundId"] != "DEV123" {
		t.Fatalf("refund block: %v", block)
	}
	wantBalance(t, e, m, 9.5, 100, 9.5-0) // 99.50 locked + 10 funded − 100 reserved
	if r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": id, "amount": 100}); r.Status != 400 {
		t.Fatalf("second refund: %d", r.Status)
	}
	e.waitRefund(m, "DEV123", "PROCESSING")
	if r := e.call(m.Key, "POST", "/v1/sandbox/refunds/DEV123/settle", nil); r.Status != 200 {
		t.Fatalf("settle: %d %s", r.Status, r.Message)
	}
	done := e.waitRefund(m, id, "COMPLETED")
	if done["status"] != "REVERSED" {
		t.Fatalf("deposit after refund: %v", done)
	}
	wantBalance(t, e, m, 9.5, 0, 9.5)
	if evs := strings.Join(eventTypes(t, e, id), ","); evs != "payment.created,payment.paid,refund.requested,refund.completed,payment.refunded" {
		t.Fatalf("events: %s", evs)
	}
	l := e.call(m.Key, "GET", "/v1/refunds/list", nil).m(t)
	if l["total"] != 1.0 {
		t.Fatalf("refund list: %v", l)
	}
	st := e.call(m.Key, "GET", "/v1/account/transactions?search=Refund", nil).m(t)
	if st["total"] != 1.0 || st["items"].([]any)[0].(map[string]any)["type"] != "PIX_REFUND" {
		t.Fatalf("statement: %v", st)
	}
	e.verifyLedger()
}

func TestRefundFailsAndConcurrentRequests(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	id, _ := e.paidCharge(m, 20) // keeps 19.50
	if r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": id, "amount": 20}); r.Status != 400 || !strings.Contains(r.Message, "insufficient") {
		t.Fatalf("refund without the fee: %d %s", r.Status, r.Message)
	}
	wantBalance(t, e, m, 19.5, 0, 0)
	e.fund(m, 5)
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": id, "amount": 20})
			mu.Lock()
			codes[r.Status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[200] != 1 || codes[400] != 7 {
		t.Fatalf("concurrent refunds: %v", codes)
	}
	wantBalance(t, e, m, 4.5, 20, 4.5)
	e.waitRefund(m, id, "PROCESSING")
	e.call(m.Key, "POST", "/v1/sandbox/refunds/"+id+"/fail", nil)
	got := e.waitRefund(m, id, "FAILED")
	if got["status"] != "COMPLETED" {
		t.Fatalf("deposit after failed refund: %v", got["status"])
	}
	wantBalance(t, e, m, 24.5, 0, 5)
	if evs := eventTypes(t, e, id); evs[len(evs)-1] != "refund.failed" {
		t.Fatalf("events: %v", evs)
	}
	// At most one refund per deposit, ever: a failed one is not retried.
	if r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": id, "amount": 20}); r.Status != 400 {
		t.Fatalf("refund after a failed one: %d", r.Status)
	}
	e.verifyLedger()
}

func TestInternalTransfers(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	a, b := e.merchant(), e.merchant()
	e.fund(a, 50)
	for _, bad := range []map[string]any{
		{"amount": 10, "recipientEmail": a.Email},
		{"amount": 10, "recipientEmail": "ghost@example.com"},
		{"amount": 0, "recipientEmail": b.Email},
		{"amount": 10},
		{"amount": 60, "recipientEmail": b.Email},
	} {
		if r := e.call(a.Key, "POST", "/v1/transfer-internal/create", bad); r.Status != 400 {
			t.Errorf("internal %v: %d %s", bad, r.Status, r.Message)
		}
	}
	r := e.call(a.Key, "POST", "/v1/transfer-internal/create", map[string]any{"amount": 12.34, "recipientEmail": strings.ToUpper(b.Email), "externalReference": "int-1", "description": "Repasse"})
	if r.Status != 200 {
		t.Fatalf("internal: %d %s", r.Status, r.Message)
	}
	out := r.m(t)
	if out["type"] != "INTERNAL_TRANSFER_OUT" || out["status"] != "COMPLETED" || out["transferKind"] != "internal" || out["recipientEmail"] != b.Email || out["pairId"] == nil || out["feeAmount"] != 0.0 {
		t.Fatalf("OUT record: %v", out)
	}
	if again := e.call(a.Key, "POST", "/v1/transfer-internal/create", map[string]any{"amount": 12.34, "recipientEmail": b.Email, "externalReference": "int-1"}); again.m(t)["id"] != out["id"] {
		t.Fatalf("replay created another transfer")
	}
	wantBalance(t, e, a, 37.66, 0, 37.66)
	wantBalance(t, e, b, 12.34, 0, 12.34)
	in := e.call(b.Key, "GET", "/v1/transfer-internal/list", nil).m(t)["items"].([]any)[0].(map[string]any)
	if in["type"] != "INTERNAL_TRANSFER_IN" || in["pairId"] != out["pairId"] || in["counterpartyName"] == nil {
		t.Fatalf("IN record: %v", in)
	}
	if g := e.call(a.Key, "GET", "/v1/transfer-internal/get/int-1", nil); g.Status != 200 || g.m(t)["id"] != out["id"] {
		t.Fatalf("get by externalReference: %d", g.Status)
	}
	if g := e.call(b.Key, "GET", "/v1/transfer-internal/get/"+out["id"].(string), nil); g.Status != 404 {
		t.Fatalf("receiver reading the sender's OUT: %d", g.Status)
	}
	if evs := eventTypes(t, e, out["id"].(string)); len(evs) != 1 || evs[0] != "transfer.internal.completed" {
		t.Fatalf("sender events: %v", evs)
	}
	if evs := eventTypes(t, e, in["id"].(string)); len(evs) != 1 || evs[0] != "transfer.internal.received" {
		t.Fatalf("receiver events: %v", evs)
	}
	// Opposite transfers at the same time neither deadlock nor lose a centavo.
	e.fund(b, 50)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			from, to := a, b
			if i%2 == 1 {
				from, to = b, a
			}
			if r := e.call(from.Key, "POST", "/v1/transfer-internal/create", map[string]any{"amount": 1, "recipientEmail": to.Email}); r.Status != 200 {
				t.Errorf("concurrent internal: %d %s", r.Status, r.Message)
			}
		}()
	}
	wg.Wait()
	wantBalance(t, e, a, 37.66, 0, 37.66)
	wantBalance(t, e, b, 62.34, 0, 62.34)
	e.verifyLedger()
}
