package e2e

import (
	"context"
	"fmt"
	"testing"

	"go.temporal.io/api/enums/v1"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/workflows"
)

// Issues 24 and 26 (review finding): coins confirmed on chain after a
// CRYPTO checkout's deposit expired are credited late, not refused and
// credited to nobody; the session, expired with its deposit, is then paid
// (its coins bring the whole quote at the sandbox's fixed price). The
// deposit's expiry is staged: its expiresAt is moved into the past and its
// workflow started again, so its durable timer fires seconds later.
func TestCryptoCheckoutPaidAfterItsDepositExpired(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	e.enable(m, domain.FeatureCrypto)
	prod := e.product(m, map[string]any{"name": "Curso", "price": 33, "deliveries": []map[string]any{
		{"type": "TEXT_INFINITE", "richContent": "https://example.com/curso"}}})
	linkID := e.link(m, map[string]any{"name": "Curso", "fixedAmount": 33, "productIds": []string{prod}, "allowedMethods": []string{"CRYPTO"}})
	sid, txID, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "CRYPTO"})
	if r.Status != 200 {
		t.Fatalf("checkout: %d %s", r.Status, r.Message)
	}

	ctx := context.Background()
	if _, err := e.app.DB.ExecContext(ctx, `UPDATE transactions SET expires_at = now() - interval '1 second' WHERE id = $1`, txID); err != nil {
		t.Fatal(err)
	}
	dep, err := db.TransactionByID(ctx, e.app.DB, txID, domain.TypeCryptoIn)
	if err != nil {
		t.Fatal(err)
	}
	opts := workflows.CryptoStart(dep).Options(e.app.Cfg.TaskQueue)
	opts.WorkflowIDReusePolicy = enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE
	opts.WorkflowIDConflictPolicy = enums.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING
	run, err := e.app.Temporal.ExecuteWorkflow(ctx, opts, workflows.CryptoDepositWorkflow, workflows.CryptoInput{Record: dep})
	if err != nil {
		t.Fatal(err)
	}
	var closed string
	if err := run.Get(ctx, &closed); err != nil || closed != domain.StatusCanceled {
		t.Fatalf("the deposit's workflow ended %q, %v; want CANCELED", closed, err)
	}
	if s := e.session(m, sid); s["status"] != "EXPIRED" {
		t.Fatalf("session after its deposit expired = %v", s)
	}
	wantBalance(t, e, m, 0, 0, 0)

	// The payer's coins are confirmed now: credited late, the sale made.
	if p := e.call(m.Key, "POST", "/v1/sandbox/payment-crypto/"+txID+"/pay", nil); p.Status != 200 {
		t.Fatalf("pay after expiry: %d %s", p.Status, p.Message)
	}
	eventually(t, "the expired session to be PAID", func() bool { return e.session(m, sid)["status"] == "PAID" })
	got := e.call(m.Key, "GET", "/v1/payment-crypto/get/"+txID, nil).m(t)
	late, _ := got["latePayment"].(map[string]any)
	if got["status"] != "COMPLETED" || late["credited"] != 33.0 || late["rate"] != 5.5 || got["txHash"] == nil {
		t.Fatalf("deposit paid late = %v", got)
	}
	if got := e.eventTypes(sid); fmt.Sprint(got) != "[payment_link.paid]" {
		t.Fatalf("session events = %v", got)
	}
	// A second notice of the same coins is refused and credits nothing.
	if p := e.call(m.Key, "POST", "/v1/sandbox/payment-crypto/"+txID+"/pay", nil); p.Status != 400 {
		t.Fatalf("second pay: %d %s", p.Status, p.Message)
	}
	wantBalance(t, e, m, 33, 0, 33)
	e.verifyLedger()
}
