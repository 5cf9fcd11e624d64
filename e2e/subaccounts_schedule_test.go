package e2e

import (
	"testing"

	"github.com/jangada/jangada/domain"
)

// A scheduled PIX with payload.subaccountId debits each run from the
// sub-account, under its lock mode as it stands at run time: a
// withdraw_only lock refuses the run, and the schedule's main account is
// never touched.
func TestScheduledPixFromASubaccount(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.subMerchant()
	e.enable(m, domain.FeatureSubaccountPix)
	e.fund(m, 100)
	sub := e.createSub(m)
	if r := e.move(m, "add-balance", map[string]any{"id": sub, "amount": 50, "description": "caixa", "externalReference": "sched-fund"}); r.Status != 200 {
		t.Fatalf("add-balance: %d %s", r.Status, r.Message)
	}
	body := weeklyPix(10)
	body["payload"].(map[string]any)["subaccountId"] = sub
	id := e.schedule(m, body)["id"].(string)

	r := e.call(m.Key, "POST", scheduledPath+"run-now/"+id, nil)
	if r.Status != 200 {
		t.Fatalf("run-now: %d %s", r.Status, r.Message)
	}
	run := r.m(t)["run"].(map[string]any)
	tr := e.call(m.Key, "GET", "/v1/transfer-pix/get/"+run["transactionId"].(string), nil).m(t)
	if tr["subaccountId"] != sub {
		t.Fatalf("the run's transfer %v is not the sub-account's", tr)
	}
	wantBalance(t, e, m, 50, 0, 50) // the main account gave 50 to the sub and nothing to the run
	e.call(m.Key, "POST", "/v1/sandbox/transfer-pix/"+tr["id"].(string)+"/settle", nil)
	e.waitTransfer(m, tr["id"].(string), "COMPLETED")
	if b := e.subBalance(m, sub); b["availablePadrao"] != 39.5 { // R$ 10 + R$ 0.50 fee
		t.Fatalf("sub-account balance %v after the run, want 39.50 available", b)
	}

	if r := e.move(m, "lock", map[string]any{"id": sub, "mode": "withdraw_only"}); r.Status != 200 {
		t.Fatalf("lock: %d %s", r.Status, r.Message)
	}
	wantStatus(t, e.call(m.Key, "POST", scheduledPath+"run-now/"+id, nil), 400, "")
	if b := e.subBalance(m, sub); b["availablePadrao"] != 39.5 || b["pendingPadrao"] != 0.0 {
		t.Fatalf("sub-account balance %v after a refused run", b)
	}
	e.verifyLedger()
}
