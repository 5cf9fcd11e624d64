package e2e

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// fund credits an account through an operator adjustment (withdrawable at once).
func (e *env) fund(m merchant, amount float64) {
	e.t.Helper()
	if r := e.admin("POST", "/accounts/"+m.ID+"/adjustments", map[string]any{"amount": amount, "description": "funding"}); r.Status != 200 {
		e.t.Fatalf("fund: %d %s", r.Status, r.Message)
	}
}

func (e *env) waitTransfer(m merchant, id, want string) map[string]any {
	e.t.Helper()
	var got map[string]any
	eventually(e.t, "transfer "+id+" to be "+want, func() bool {
		r := e.call(m.Key, "GET", "/v1/transfer-pix/get/"+id, nil)
		got = r.m(e.t)
		return got["status"] == want
	})
	return got
}

func wantBalance(t *testing.T, e *env, m merchant, available, pending, withdrawable float64) {
	t.Helper()
	b := e.balance(m)
	if b["available"] != available || b["pending"] != pending || b["withdrawable"] != withdrawable {
		t.Fatalf("balance %v, want available %v pending %v withdrawable %v", b, available, pending, withdrawable)
	}
}

func TestPixOutSettlesAndFails(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	e.fund(m, 100)
	r := e.call(m.Key, "POST", "/v1/transfer-pix/create", map[string]any{"amount": 10, "pixKey": "529.982.247-25", "pixKeyType": "CPF", "description": "Fornecedor"})
	if r.Status != 200 {
		t.Fatalf("create: %d %s", r.Status, r.Message)
	}
	tr := r.m(t)
	id := tr["id"].(string)
	if tr["type"] != "PIX_OUT" || tr["amount"] != 10.0 || tr["feeAmount"] != 0.5 || tr["recipient"] != nil {
		t.Fatalf("created: %v", tr)
	}
	wantBalance(t, e, m, 89.5, 10.5, 89.5)
	e.waitTransfer(m, id, "PROCESSING")
	if r := e.call(m.Key, "POST", "/v1/sandbox/transfer-pix/"+id+"/settle", nil); r.Status != 200 {
		t.Fatalf("settle: %d %s", r.Status, r.Message)
	}
	done := e.waitTransfer(m, id, "COMPLETED")
	if rec, _ := done["recipient"].(map[string]any); rec == nil || rec["name"] == nil {
		t.Fatalf("recipient not filled: %v", done)
	}
	wantBalance(t, e, m, 89.5, 0, 89.5)
	if evs := strings.Join(eventTypes(t, e, id), ","); evs != "transfer.created,transfer.completed" {
		t.Fatalf("events: %s", evs)
	}
	if r := e.call(m.Key, "POST", "/v1/sandbox/transfer-pix/"+id+"/fail", nil); r.Status != 400 {
		t.Fatalf("failing a settled transfer: %d", r.Status)
	}

	// The sandbox fail key fails at settlement and the reserve comes back exactly.
	f := e.call(m.Key, "POST", "/v1/payouts/create", map[string]any{"amount": 20, "pixKey": "fail@sandbox.jangada", "pixKeyType": "EMAIL", "coverFee": false}).m(t)
	if f["netAmount"] != 19.5 {
		t.Fatalf("coverFee false: %v", f)
	}
	wantBalance(t, e, m, 69.5, 20, 69.5)
	e.waitTransfer(m, f["id"].(string), "PROCESSING")
	e.call(m.Key, "POST", "/v1/sandbox/transfer-pix/"+f["id"].(string)+"/settle", nil)
	e.waitTransfer(m, f["id"].(string), "FAILED")
	wantBalance(t, e, m, 89.5, 0, 89.5)
	if got := e.call(m.Key, "GET", "/v1/payouts/status/"+f["id"].(string), nil).m(t); got["status"] != "FAILED" {
		t.Fatalf("status: %v", got)
	}
	if l := e.call(m.Key, "GET", "/v1/transfer-pix/list", nil).m(t); l["total"] != 2.0 {
		t.Fatalf("list: %v", l)
	}
	e.verifyLedger()
}

func TestPixOutValidationAndBalance(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	payee := e.merchant()
	charge := e.createCharge(payee, map[string]any{"amount": 33.33, "description": "QR a pagar"})
	cases := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"no destination", map[string]any{"amount": 10}, "pixKey"},
		{"no type", map[string]any{"amount": 10, "pixKey": "52998224725"}, "pixKeyType"},
		{"bad type", map[string]any{"amount": 10, "pixKey": "52998224725", "pixKeyType": "RG"}, "pixKeyType"},
		{"bad CPF", map[string]any{"amount": 10, "pixKey": "52998224724", "pixKeyType": "CPF"}, "pixKey"},
		{"bad phone", map[string]any{"amount": 10, "pixKey": "12345", "pixKeyType": "TELEFONE"}, "pixKey"},
		{"bad random key", map[string]any{"amount": 10, "pixKey": "not-a-uuid", "pixKeyType": "CHAVE_ALEATORIA"}, "pixKey"},
		{"both", map[string]any{"amount": 10, "pixKey": "a@b.com", "pixKeyType": "EMAIL", "pixCopyPaste": charge["copyPaste"]}, "either"},
		{"bad CRC", map[string]any{"pixCopyPaste": charge["copyPaste"].(string)[:len(charge["copyPaste"].(string))-4] + "0000"}, "pixCopyPaste"},
		{"amount disagrees", map[string]any{"amount": 10, "pixCopyPaste": charge["copyPaste"]}, "amount"},
		{"zero amount", map[string]any{"amount": 0, "pixKey": "a@b.com", "pixKeyType": "EMAIL"}, "amount"},
		{"three decimals", map[string]any{"amount": 1.001, "pixKey": "a@b.com", "pixKeyType": "EMAIL"}, "amount"},
		{"insufficient", map[string]any{"amount": 10, "pixKey": "a@b.com", "pixKeyType": "EMAIL"}, "insufficient"},
	}
	for _, tc := range cases {
		r := e.call(m.Key, "POST", "/v1/transfer-pix/create", tc.body)
		if r.Status != 400 || !strings.Contains(r.Message, tc.field) {
			t.Errorf("%s: %d %q", tc.name, r.Status, r.Message)
		}
	}
	// Received PIX is locked for 24 h: not withdrawable.
	paid := e.createCharge(m, map[string]any{"amount": 50, "description": "Recebido"})
	e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+paid["id"].(string)+"/pay", nil)
	e.waitStatus(m, paid["id"].(string), "COMPLETED")
	if r := e.call(m.Key, "POST", "/v1/transfer-pix/create", map[string]any{"amount": 1, "pixKey": "a@b.com", "pixKeyType": "EMAIL"}); r.Status != 400 {
		t.Fatalf("PIX out of locked money: %d", r.Status)
	}
	wantBalance(t, e, m, 49.5, 0, 0)

	// Paying a BR Code: the key and the amount come from the code.
	e.fund(m, 40)
	r := e.call(m.Key, "POST", "/v1/transfer-pix/create", map[string]any{"pixCopyPaste": charge["copyPaste"], "externalReference": "boleto-1"})
	if r.Status != 200 || r.m(t)["amount"] != 33.33 || r.m(t)["pixKeyType"] != "CHAVE_ALEATORIA" {
		t.Fatalf("copy-paste transfer: %d %s %s", r.Status, r.Message, r.Data)
	}
	again := e.call(m.Key, "POST", "/v1/transfer-pix/create", map[string]any{"pixCopyPaste": charge["copyPaste"], "externalReference": "boleto-1"})
	if again.m(t)["id"] != r.m(t)["id"] {
		t.Fatalf("externalReference replay created a second transfer")
	}
	wantBalance(t, e, m, 89.5-33.83, 33.83, 40-33.83)
	e.verifyLedger()
}

func TestPixOutConcurrentDebitsAreExact(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	e.fund(m, 55)
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.call(m.Key, "POST", "/v1/transfer-pix/create", map[string]any{"amount": 10, "pixKey": fmt.Sprintf("p%d@example.com", i), "pixKeyType": "EMAIL"})
			mu.Lock()
			codes[r.Status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[200] != 5 || codes[400] != 15 {
		t.Fatalf("status counts %v: want 5 accepted (5 × 10.50 ≤ 55) and 15 refused", codes)
	}
	wantBalance(t, e, m, 2.5, 52.5, 2.5)
	e.verifyLedger()
}

func TestPixOutSecurityReview(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	e.fund(m, 500)
	e.admin("PATCH", "/accounts/"+m.ID, map[string]any{"securityReviewThreshold": 100})
	create := func() string {
		r := e.call(m.Key, "POST", "/v1/transfer-pix/create", map[string]any{"amount": 150, "pixKey": "+5511987654321", "pixKeyType": "TELEFONE"})
		if r.Status != 200 || r.m(t)["securityReview"].(map[string]any)["pending"] != true {
			t.Fatalf("held transfer: %d %s", r.Status, r.Data)
		}
		return r.m(t)["id"].(string)
	}
	approved, rejected := create(), create()
	wantBalance(t, e, m, 199, 301, 199)
	if r := e.admin("POST", "/transfers/"+approved+"/review", map[string]any{"decision": "maybe"}); r.Status != 400 {
		t.Fatalf("bad decision: %d", r.Status)
	}
	if r := e.admin("POST", "/transfers/"+approved+"/review", map[string]any{"decision": "approve"}); r.Status != 200 {
		t.Fatalf("approve: %d %s", r.Status, r.Message)
	}
	e.waitTransfer(m, approved, "PROCESSING")
	e.call(m.Key, "POST", "/v1/sandbox/transfer-pix/"+approved+"/settle", nil)
	e.waitTransfer(m, approved, "COMPLETED")
	if r := e.admin("POST", "/transfers/"+rejected+"/review", map[string]any{"decision": "reject"}); r.Status != 200 {
		t.Fatalf("reject: %d", r.Status)
	}
	got := e.waitTransfer(m, rejected, "FAILED")
	if got["securityReview"].(map[string]any)["pending"] != false {
		t.Fatalf("review still pending: %v", got)
	}
	wantBalance(t, e, m, 349.5, 0, 349.5)
	if r := e.admin("POST", "/transfers/"+rejected+"/review", map[string]any{"decision": "approve"}); r.Status != 400 {
		t.Fatalf("deciding twice: %d", r.Status)
	}
	e.verifyLedger()
}

func TestPayoutsAliasPermissions(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	legacy := e.merchant("payouts/*")
	modern := e.merchant("transfer-pix/*")
	if r := e.call(legacy.Key, "GET", "/v1/payouts/list", nil); r.Status != 200 {
		t.Fatalf("payouts with payouts/*: %d", r.Status)
	}
	if r := e.call(legacy.Key, "GET", "/v1/transfer-pix/list", nil); r.Status != 403 {
		t.Fatalf("transfer-pix with payouts/*: %d", r.Status)
	}
	if r := e.call(modern.Key, "GET", "/v1/payouts/list", nil); r.Status != 403 {
		t.Fatalf("payouts with transfer-pix/*: %d", r.Status)
	}
}
