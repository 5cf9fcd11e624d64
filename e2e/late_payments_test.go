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
