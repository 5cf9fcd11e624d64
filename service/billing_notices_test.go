package service_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
)

func wantLatePayment(t *testing.T, id string) {
	t.Helper()
	got, err := db.BillingByID(t.Context(), sharedDB, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != billing.BillingReceived || !got.Details.V.LatePayment || got.AccountTransactionID == nil {
		t.Fatalf("billing after the late notice: %s %+v", got.Status, got.Details.V)
	}
}

// TestInboxBooksAPaymentOfACanceledBoleto: the registrar took the payment
// before the void; the notice finds the billing CANCELED and its workflow
// gone, and the Inbox books it in the database (once, however often the
// registrar sends it: a second finds it paid) instead of refusing it: the money does not vanish.
func TestInboxBooksAPaymentOfACanceledBoleto(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Late Boleto Ltda")
	b := pendingBoleto(t, acct, 10_000)
	if _, moved, err := activities.CancelPayableBilling(t.Context(), sharedDB, acct.ID, b.ID); err != nil || !moved {
		t.Fatalf("cancel: %v %v", moved, err)
	}
	// Temporal is not asked (the mock refuses any call).
	inbox := &service.Inbox{DB: sharedDB, Temporal: servicemock.NewMockTemporal(gomock.NewController(t)), TaskQueue: "q"}
	notice := processor.BillingNotice{Outcome: processor.OutcomePaid, At: time.Now().UTC()}
	if err := inbox.BillingNotice(t.Context(), b.ID, notice); err != nil {
		t.Fatal(err)
	}
	// Sent again, it finds the billing paid: refused, nothing booked twice.
	if err := inbox.BillingNotice(t.Context(), b.ID, notice); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("notice again = %v, want invalid", err)
	}
	wantLatePayment(t, b.ID)
	if bal := balanceOf(t, acct); bal.Available != b.NetAmount {
		t.Fatalf("available %s, want the net %s once", bal.Available, b.NetAmount)
	}
}

// TestInboxBooksAPaymentWhoseWorkflowEndedMeanwhile: the notice read the
// billing PENDING, then the cancel moved it and its workflow ended before
// the signal: Signal-With-Start answers the workflow is closed, and the
// Inbox books the payment.
func TestInboxBooksAPaymentWhoseWorkflowEndedMeanwhile(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Late Race Ltda")
	b := pendingBoleto(t, acct, 10_000)
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	temporal.EXPECT().SignalWithStartWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
		DoAndReturn(func(context.Context, string, string, any, client.StartWorkflowOptions, any, ...any) (client.WorkflowRun, error) {
			if _, _, err := activities.CancelPayableBilling(t.Context(), sharedDB, acct.ID, b.ID); err != nil {
				t.Fatal(err)
			}
			return nil, serviceerror.NewWorkflowExecutionAlreadyStarted("closed", "", "")
		})
	inbox := &service.Inbox{DB: sharedDB, Temporal: temporal, TaskQueue: "q"}
	if err := inbox.BillingNotice(t.Context(), b.ID, processor.BillingNotice{Outcome: processor.OutcomePaid, At: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	wantLatePayment(t, b.ID)
}
