package e2e

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/jangada/jangada/domain/subaccount"
)

func (e *env) move(m merchant, path string, body map[string]any) resp {
	e.t.Helper()
	return e.call(m.Key, "POST", "/v1/subaccount/"+path, body)
}

// TestSubaccountMoves: add, remove and transfer are one posting each, show in
// account/transactions with their types and filters, refuse what the source
// cannot pay, and keep main + subs constant.
func TestSubaccountMoves(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.subMerchant()
	a, b := e.createSub(m), e.createSub(m)
	e.fund(m, 100)
	r := e.move(m, "add-balance", map[string]any{"id": a, "amount": 30, "description": "float", "externalReference": "add-1"})
	if v := r.m(t); r.Status != 200 || v["type"] != subaccount.TypeAddBalance || v["subaccountId"] != a || v["amount"] != 30.0 || v["status"] != "COMPLETED" {
		t.Fatalf("add: %d %s %v", r.Status, r.Message, v)
	}
	if r := e.move(m, "remove-balance", map[string]any{"id": a, "amount": 10, "externalReference": "rem-1"}); r.Status != 200 || r.m(t)["type"] != subaccount.TypeRemoveBalance {
		t.Fatalf("remove: %d %s", r.Status, r.Message)
	}
	r = e.move(m, "transfer", map[string]any{"fromSubaccountId": a, "toSubaccountId": b, "amount": 5.5, "externalReference": "tr-1"})
	if v := r.m(t); r.Status != 200 || v["type"] != subaccount.TypeTransfer || v["subaccountId"] != a || v["toSubaccountId"] != b {
		t.Fatalf("transfer: %d %s %v", r.Status, r.Message, v)
	}
	wantBalance(t, e, m, 80, 0, 80)
	wantSubBalance(t, e, m, a, 14.5, 14.5, 0, 0)
	wantSubBalance(t, e, m, b, 5.5, 5.5, 0, 0)
	// The source cannot pay: 400, nothing moves.
	for path, body := range map[string]map[string]any{
		"add-balance":    {"id": a, "amount": 80.01, "externalReference": "add-big"},
		"remove-balance": {"id": a, "amount": 14.51, "externalReference": "rem-big"},
		"transfer":       {"fromSubaccountId": b, "toSubaccountId": a, "amount": 6, "externalReference": "tr-big"},
	} {
		if r := e.move(m, path, body); r.Status != 400 || !strings.Contains(r.Message, "insufficient") {
			t.Errorf("%s beyond the source: %d %s", path, r.Status, r.Message)
		}
	}
	for _, body := range []map[string]any{{"id": a, "amount": 1}, {"id": a, "externalReference": "x"}, {"id": a, "amount": -1, "externalReference": "x"},
		{"id": a, "amount": 1.001, "externalReference": "x"}, {"amount": 1, "externalReference": "x"}} {
		if r := e.move(m, "add-balance", body); r.Status != 400 {
			t.Errorf("add %v: %d %s", body, r.Status, r.Message)
		}
	}
	if r := e.move(m, "transfer", map[string]any{"fromSubaccountId": a, "toSubaccountId": a, "amount": 1, "externalReference": "self"}); r.Status != 400 {
		t.Errorf("transfer to itself: %d", r.Status)
	}
	if r := e.move(m, "transfer", map[string]any{"fromSubaccountId": a, "toSubaccountId": "sub_missing", "amount": 1, "externalReference": "miss"}); r.Status != 404 || !strings.Contains(r.Message, "toSubaccountId") {
		t.Errorf("transfer to a missing sub-account: %d %s", r.Status, r.Message)
	}
	wantBalance(t, e, m, 80, 0, 80)
	wantSubBalance(t, e, m, a, 14.5, 14.5, 0, 0)
	// account/transactions: the three moves with their types; the filters.
	all := e.call(m.Key, "GET", "/v1/account/transactions", nil).m(t)
	types := map[string]bool{}
	for _, it := range all["items"].([]any) {
		types[it.(map[string]any)["type"].(string)] = true
	}
	for _, typ := range subaccount.MoveTypes {
		if !types[typ] {
			t.Errorf("account/transactions lacks %s: %v", typ, types)
		}
	}
	if f := e.call(m.Key, "GET", "/v1/account/transactions?subaccountId="+b, nil).m(t); f["total"] != 1.0 {
		t.Errorf("filter subaccountId=b: %v", f)
	}
	if f := e.call(m.Key, "GET", "/v1/account/transactions?merchantSubaccountId="+a, nil).m(t); f["total"] != 3.0 {
		t.Errorf("filter merchantSubaccountId=a: %v", f)
	}
	e.verifyLedger()
}

// TestSubaccountMovesAreIdempotentUnderConcurrentRepeats: the same
// externalReference sent many times at once moves money once and answers
// the first move every time.
func TestSubaccountMovesAreIdempotentUnderConcurrentRepeats(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.subMerchant()
	a, b := e.createSub(m), e.createSub(m)
	e.fund(m, 50)
	for _, c := range []struct {
		path string
		body map[string]any
	}{
		{"add-balance", map[string]any{"id": a, "amount": 10, "externalReference": "same"}},
		{"remove-balance", map[string]any{"id": a, "amount": 2, "externalReference": "same"}},
		{"transfer", map[string]any{"fromSubaccountId": a, "toSubaccountId": b, "amount": 3, "externalReference": "same"}},
	} {
		ids := make([]string, 12)
		var wg sync.WaitGroup
		for i := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := e.move(m, c.path, c.body)
				if r.Status != 200 {
					t.Errorf("%s repeat: %d %s", c.path, r.Status, r.Message)
					return
				}
				var v map[string]any
				r.into(t, &v)
				ids[i] = v["id"].(string)
			}()
		}
		wg.Wait()
		for _, id := range ids {
			if id != ids[0] {
				t.Fatalf("%s: repeats answered different moves %v", c.path, ids)
			}
		}
		// A later repeat answers the first move; the reference reused for
		// another amount is a 400 naming it.
		if r := e.move(m, c.path, c.body); r.Status != 200 || r.m(t)["id"] != ids[0] {
			t.Fatalf("%s late repeat: %d %s %v", c.path, r.Status, r.Message, r.Data)
		}
		again := map[string]any{}
		for k, v := range c.body {
			again[k] = v
		}
		again["amount"] = 1
		if r := e.move(m, c.path, again); r.Status != 400 || !strings.Contains(r.Message, "externalReference") {
			t.Fatalf("%s repeat with another amount: %d %s, want a 400 naming externalReference", c.path, r.Status, r.Message)
		}
	}
	wantBalance(t, e, m, 42, 0, 42)
	wantSubBalance(t, e, m, a, 5, 5, 0, 0)
	wantSubBalance(t, e, m, b, 3, 3, 0, 0)
	// Crossing transfers a→b and b→a at once: the locks are taken in id
	// order, so none deadlocks and every one completes.
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			from, to := a, b
			if i%2 == 1 {
				from, to = b, a
			}
			r := e.move(m, "transfer", map[string]any{"fromSubaccountId": from, "toSubaccountId": to, "amount": 0.5, "externalReference": fmt.Sprintf("cross-%d", i)})
			if r.Status != 200 {
				t.Errorf("crossing transfer %d: %d %s", i, r.Status, r.Message)
			}
		}()
	}
	wg.Wait()
	wantSubBalance(t, e, m, a, 5, 5, 0, 0)
	wantSubBalance(t, e, m, b, 3, 3, 0, 0)
	e.verifyLedger()
}

// TestSubaccountLimits: per transaction, daily and monthly limits over
// COMPLETED debits; null removes a limit; two concurrent debits cannot both
// pass a limit that only one fits. (The day boundary in America/Sao_Paulo is
// proven with an injected clock in service/subaccounts_test.go.)
func TestSubaccountLimits(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.subMerchant()
	a, b := e.createSub(m), e.createSub(m)
	e.fund(m, 130)
	e.move(m, "add-balance", map[string]any{"id": a, "amount": 100, "externalReference": "fund"})
	r := e.move(m, "set-limits", map[string]any{"id": a, "daily": 10, "monthly": 30, "perTransaction": 6})
	if l := r.m(t)["limits"].(map[string]any); r.Status != 200 || l["daily"] != 10.0 || l["perTransaction"] != 6.0 {
		t.Fatalf("set-limits: %d %s", r.Status, r.Message)
	}
	if r := e.move(m, "remove-balance", map[string]any{"id": a, "amount": 6.01, "externalReference": "pt"}); r.Status != 400 || !strings.Contains(r.Message, "per-transaction") {
		t.Fatalf("per transaction: %d %s", r.Status, r.Message)
	}
	// Five concurrent debits of 6 against a daily limit of 10: exactly one passes.
	var wg sync.WaitGroup
	var mu sync.Mutex
	passed := 0
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.move(m, "transfer", map[string]any{"fromSubaccountId": a, "toSubaccountId": b, "amount": 6, "externalReference": fmt.Sprintf("c%d", i)})
			mu.Lock()
			defer mu.Unlock()
			if r.Status == 200 {
				passed++
			} else if r.Status != 400 || !strings.Contains(r.Message, "daily") {
				t.Errorf("concurrent debit: %d %s", r.Status, r.Message)
			}
		}()
	}
	wg.Wait()
	if passed != 1 {
		t.Fatalf("%d concurrent debits passed a daily limit that fits one", passed)
	}
	if r := e.move(m, "remove-balance", map[string]any{"id": a, "amount": 4, "externalReference": "fits"}); r.Status != 200 {
		t.Fatalf("debit that fits: %d %s", r.Status, r.Message)
	}
	// Credits are not limited; null (or absent) removes a limit.
	if r := e.move(m, "add-balance", map[string]any{"id": a, "amount": 20, "externalReference": "credit"}); r.Status != 200 {
		t.Fatalf("credit: %d %s", r.Status, r.Message)
	}
	r = e.move(m, "set-limits", map[string]any{"id": a, "daily": nil, "monthly": 30, "perTransaction": nil})
	if l := r.m(t)["limits"].(map[string]any); l["daily"] != nil || l["monthly"] != 30.0 {
		t.Fatalf("null limits: %v", l)
	}
	if r := e.move(m, "remove-balance", map[string]any{"id": a, "amount": 20, "externalReference": "month"}); r.Status != 200 {
		t.Fatalf("within the month: %d %s", r.Status, r.Message)
	}
	if r := e.move(m, "remove-balance", map[string]any{"id": a, "amount": 0.01, "externalReference": "over"}); r.Status != 400 || !strings.Contains(r.Message, "monthly") {
		t.Fatalf("monthly: %d %s", r.Status, r.Message)
	}
	if r := e.move(m, "set-limits", map[string]any{"id": a, "daily": -1}); r.Status != 400 || !strings.Contains(r.Message, "daily") {
		t.Fatalf("negative limit: %d %s", r.Status, r.Message)
	}
	e.verifyLedger()
}

// TestSubaccountPricing: set-pricing and the preview.
func TestSubaccountPricing(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.subMerchant()
	b := pfBody()
	id := e.call(m.Key, "POST", "/v1/subaccount/create", b).m(t)["id"].(string)
	r := e.move(m, "set-pricing", map[string]any{"id": id, "pixInPercent": 1.5, "pixInFixed": 0.25, "pixOutFixed": 1})
	if r.Status != 200 {
		t.Fatalf("set-pricing: %d %s", r.Status, r.Message)
	}
	p := e.call(m.Key, "GET", "/v1/subaccount/pricing?externalReference="+b["externalReference"].(string), nil).m(t)
	lines := p["lines"].([]any)
	if len(lines) != 2 || lines[0].(map[string]any)["label"] == "" || p["totalPercentFee"] != 1.5 || p["totalFixedFee"] != 0.75 {
		t.Fatalf("preview: %v", p)
	}
	if out := p["pixOut"].(map[string]any); out["totalFixedFee"] != 1.5 || out["totalPercentFee"] != 0.0 {
		t.Fatalf("preview pixOut: %v", out)
	}
	for _, bad := range []map[string]any{{"id": id, "pixInPercent": 100}, {"id": id, "pixOutFixed": -1}, {"id": id, "pixInFixed": "1"}} {
		if r := e.move(m, "set-pricing", bad); r.Status != 400 {
			t.Errorf("set-pricing %v: %d %s", bad, r.Status, r.Message)
		}
	}
	if r := e.call(m.Key, "GET", "/v1/subaccount/pricing", nil); r.Status != 400 {
		t.Errorf("pricing without id: %d", r.Status)
	}
}
