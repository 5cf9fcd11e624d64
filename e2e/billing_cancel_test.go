package e2e

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/workflows"
)

// boletoSubscription makes a BOLETO subscription due today and answers it
// once its first cycle's billing exists.
func (e *env) boletoSubscription(m merchant) billing.SubscriptionRecord {
	e.t.Helper()
	r := e.call(m.Key, "POST", "/v1/subscriptions/create", map[string]any{"method": "BOLETO", "amount": 80, "cycle": "MONTHLY",
		"nextDueDate": domain.Today(time.Now()).Format(time.DateOnly), "customer": billingCustomer})
	if r.Status != 200 {
		e.t.Fatalf("create subscription: %d %s", r.Status, r.Message)
	}
	var sub billing.SubscriptionRecord
	r.into(e.t, &sub)
	eventually(e.t, "cycle 1 billed", func() bool {
		g := e.call(m.Key, "GET", "/v1/subscriptions/get/"+sub.SubscriptionID, nil)
		g.into(e.t, &sub)
		return g.Status == 200 && sub.LastBillingID != ""
	})
	return sub
}

// billingWorkflowClosed waits for the billing's workflow to end (after a
// cancel: once it has voided the boleto or booked a late payment).
func (e *env) billingWorkflowClosed(id string) {
	e.t.Helper()
	eventually(e.t, "billing "+id+"'s workflow closed", func() bool {
		d, err := temporalClient.DescribeWorkflowExecution(context.Background(), workflows.BillingWorkflowID(id), "")
		return err == nil && d.GetWorkflowExecutionInfo().GetStatus() != enums.WORKFLOW_EXECUTION_STATUS_RUNNING
	})
}

func (e *env) storedBilling(id string) billing.Billing {
	e.t.Helper()
	b, err := db.BillingByID(context.Background(), e.app.DB, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// A canceled subscription's pending boleto is voided at the registrar: the
// payer's payment after it is refused and nothing moves.
func TestCanceledBoletoIsVoidedAndItsPaymentRefused(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	sub := e.boletoSubscription(m)
	if r := e.call(m.Key, "POST", "/v1/subscriptions/cancel/"+sub.SubscriptionID, nil); r.Status != 200 {
		t.Fatalf("cancel: %d %s", r.Status, r.Message)
	}
	id := sub.LastBillingID
	e.waitBilling(m, id, billing.BillingCanceled)
	// The void runs now, not at the due date the workflow was deferred to.
	e.billingWorkflowClosed(id)
	if b := e.storedBilling(id); !b.Details.V.BoletoVoided {
		t.Fatalf("canceled billing not voided: %+v", b.Details.V)
	}
	r := e.call(m.Key, "POST", "/v1/sandbox/billings/"+id+"/pay", nil)
	if r.Status != 400 || !strings.Contains(r.Message, "voided") {
		t.Fatalf("pay of a voided boleto: %d %s", r.Status, r.Message)
	}
	if b := e.waitBilling(m, id, billing.BillingCanceled); b["paidAt"] != nil {
		t.Fatalf("voided billing paid: %v", b)
	}
	wantBalance(t, e, m, 0, 0, 0)
	e.verifyLedger()
}

// The payer's payment racing the cancel has exactly one outcome: refused
// (the void went first; nothing moves) or taken (the registrar went first;
// the payment is credited, a late payment if the cancel had moved the row),
// and the ledger balances either way.
func TestBoletoPaymentRacingItsCancelHasOneOutcome(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	for range 3 {
		m := e.merchant()
		sub := e.boletoSubscription(m)
		id := sub.LastBillingID
		var pay, cancel resp
		var wg sync.WaitGroup
		start := make(chan struct{})
		wg.Add(2)
		go func() { defer wg.Done(); <-start; pay = e.call(m.Key, "POST", "/v1/sandbox/billings/"+id+"/pay", nil) }()
		go func() {
			defer wg.Done()
			<-start
			cancel = e.call(m.Key, "POST", "/v1/subscriptions/cancel/"+sub.SubscriptionID, nil)
		}()
		close(start)
		wg.Wait()
		if cancel.Status != 200 {
			t.Fatalf("cancel: %d %s", cancel.Status, cancel.Message)
		}
		switch pay.Status {
		case 200: // taken: credited once, whether or not the cancel moved the row first
			got := e.waitBilling(m, id, billing.BillingReceived)
			e.billingWorkflowClosed(id)
			t.Logf("payment taken (late payment: %v)", e.storedBilling(id).Details.V.LatePayment)
			if got["paidAt"] == nil {
				t.Fatalf("taken payment not booked: %v", got)
			}
			wantBalance(t, e, m, 78.01, 0, 0) // 80 − 1.99, locked until the credit date
		case 400: // refused: the boleto was voided first
			e.waitBilling(m, id, billing.BillingCanceled)
			e.billingWorkflowClosed(id)
			if b := e.storedBilling(id); !b.Details.V.BoletoVoided || b.PaidAt != nil {
				t.Fatalf("refused payment, billing %+v", b)
			}
			t.Log("payment refused")
			wantBalance(t, e, m, 0, 0, 0)
		default:
			t.Fatalf("pay: %d %s", pay.Status, pay.Message)
		}
		e.verifyLedger()
	}
}
