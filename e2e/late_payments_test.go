package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/workflows"
)

// restartExpired moves a PENDING record's expiry into the past and starts
// its workflow again (the running one terminated), so that its durable
// timer fires at once: how a test stages an expiry without waiting for it.
func (e *env) restartExpired(typ, id string, start func(domain.Transaction) (workflows.Start, any, any)) client.WorkflowRun {
	e.t.Helper()
	ctx := context.Background()
	if _, err := e.app.DB.ExecContext(ctx, `UPDATE transactions SET expires_at = now() - interval '1 second' WHERE id = $1`, id); err != nil {
		e.t.Fatal(err)
	}
	rec, err := db.TransactionByID(ctx, e.app.DB, id, typ)
	if err != nil {
		e.t.Fatal(err)
	}
	st, wf, in := start(rec)
	st.Delay = 0
	opts := st.Options(e.app.Cfg.TaskQueue)
	opts.WorkflowIDReusePolicy = enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE
	opts.WorkflowIDConflictPolicy = enums.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING
	run, err := e.app.Temporal.ExecuteWorkflow(ctx, opts, wf, in)
	if err != nil {
		e.t.Fatal(err)
	}
	return run
}

// A PIX charge whose paid notice arrives after it expired
// (the payer paid at the last second) is settled late, not refused: the
// processor holds the payer's money. The notice is the processor's (the
// Inbox, as the sandbox's pay route refuses an expired QR as a payer's bank
// would); the charge ends COMPLETED, payment.paid after payment.expired, the
// net credited once and locked as any PIX received.
func TestChargePaidAfterItExpiredIsSettledLate(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	c := e.createCharge(m, map[string]any{"amount": 40, "description": "Pedido tardio"})
	id := c["id"].(string)
	run := e.restartExpired(domain.TypePixIn, id, func(t domain.Transaction) (workflows.Start, any, any) {
		return workflows.ChargeStart(t), workflows.ChargeWorkflow, workflows.ChargeInput{Charge: t}
	})
	var closed string
	if err := run.Get(context.Background(), &closed); err != nil || closed != domain.StatusCanceled {
		t.Fatalf("the charge's workflow ended %q, %v; want CANCELED", closed, err)
	}
	inbox := &service.Inbox{DB: e.app.DB, Temporal: temporalClient, TaskQueue: e.app.Cfg.TaskQueue, PublicURL: e.app.Cfg.PublicURL}
	at := time.Now().UTC().Add(-2 * time.Second) // paid just before the expiry
	notice := processor.ChargeNotice{Outcome: processor.OutcomePaid, EndToEndID: processor.EndToEndID("99999908", at), At: at,
		Payer: &domain.Party{Name: "Pagador Tardio", Document: "11144477735"}}
	if err := inbox.ChargeNotice(context.Background(), id, notice); err != nil {
		t.Fatalf("late paid notice: %v", err)
	}
	got := e.waitStatus(m, id, "COMPLETED")
	if got["endToEndId"] != notice.EndToEndID {
		t.Fatalf("charge paid late = %v", got)
	}
	if evs := e.eventTypes(id); fmt.Sprint(evs) != "[payment.created payment.pix.expired payment.paid]" {
		t.Fatalf("events = %v", evs)
	}
	if err := inbox.ChargeNotice(context.Background(), id, notice); err == nil {
		t.Fatal("a second notice of the same payment was accepted")
	}
	net := got["netAmount"].(float64)
	wantBalance(t, e, m, net, 0, 0) // locked for 24 h, as any PIX received
	e.verifyLedger()
}

// Coins confirmed on chain after a
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
	run := e.restartExpired(domain.TypeCryptoIn, txID, func(t domain.Transaction) (workflows.Start, any, any) {
		return workflows.CryptoStart(t), workflows.CryptoDepositWorkflow, workflows.CryptoInput{Record: t}
	})
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
