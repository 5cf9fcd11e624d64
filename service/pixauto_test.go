package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
	"github.com/jangada/jangada/processor/sandbox"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/workflows"
)

// pixRig is the PIX automatic use case over the shared database, with the
// sandbox's real consent QR behind a processor mock and a mocked Temporal.
type pixRig struct {
	uc       *service.PixAutomatic
	temporal *servicemock.MockTemporal
	proc     *processormock.MockPixAutomatic
	acct     domain.Account
	key      domain.APIKey
	customer string
}

func newPixRig(t *testing.T) *pixRig {
	ctrl := gomock.NewController(t)
	r := &pixRig{temporal: servicemock.NewMockTemporal(ctrl), proc: processormock.NewMockPixAutomatic(ctrl)}
	r.uc = &service.PixAutomatic{DB: sharedDB, Temporal: r.temporal, TaskQueue: taskQueue, Processor: r.proc}
	r.acct = newAccount(t, "Academia")
	r.acct.Features.PixAutomatic = true
	var err error
	if r.key, _, err = service.NewKey(t.Context(), sharedDB, r.acct.ID, domain.NewKey{Name: "k", Permissions: []string{"*"}}); err != nil {
		t.Fatal(err)
	}
	c, err := db.InsertCustomer(t.Context(), sharedDB, store.Customer{ID: domain.NewID("cus_"), AccountID: r.acct.ID, Name: "Maria",
		Email: ptr("m@example.com"), Document: "52998224725"})
	if err != nil {
		t.Fatal(err)
	}
	r.customer = c.ID
	return r
}

func (r *pixRig) request(key string) pixauto.NewAuthorization {
	fixed := money.Cents(4990)
	return pixauto.NewAuthorization{CustomerID: r.customer, Description: "Plano", Frequency: pixauto.Monthly, FixedAmount: &fixed,
		StartDate: pixauto.Today(time.Now()).AddDays(3), FirstPaymentAmount: 1000, IdempotencyKey: key}
}

// A create under an Idempotency-Key asks the processor for the consent QR
// and starts the workflow once; the retry answers with what was stored,
// before any check. The QR is a real BR Code with the recurrence.
func TestPixAutomaticCreateAuthorization(t *testing.T) {
	t.Parallel()
	r := newPixRig(t)
	var sbx sandbox.Sandbox
	r.proc.EXPECT().NewAuthorization(gomock.Any(), gomock.Any()).DoAndReturn(
		func(ctx context.Context, req processor.AuthorizationRequest) (processor.ChargeQR, error) {
			return sbx.NewAuthorization(ctx, req)
		}).Times(1)
	var started string
	r.temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_ context.Context, o client.StartWorkflowOptions, _ any, args ...any) (client.WorkflowRun, error) {
			started = o.ID
			if in := args[0].(workflows.AuthorizationInput); in.Authorization.Status != pixauto.StatusPending {
				t.Errorf("workflow input %+v", in)
			}
			return nil, nil
		}).Times(1)
	v, err := r.uc.CreateAuthorization(t.Context(), r.acct, r.key, r.request("k1"))
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != pixauto.StatusPending || v.CopyPaste == "" || !strings.HasPrefix(v.QRCodeBase64, "data:image/png") ||
		started != workflows.AuthorizationWorkflowID(v.ID) {
		t.Fatalf("created %+v, started %q", v, started)
	}
	again, err := r.uc.CreateAuthorization(t.Context(), r.acct, r.key, r.request("k1"))
	if err != nil || again.ID != v.ID || again.CopyPaste != v.CopyPaste {
		t.Fatalf("retry: %+v %v", again, err)
	}
	stored, err := db.GetAuthorization(t.Context(), sharedDB, r.acct.ID, v.ID)
	if err != nil || stored.FirstPaymentFee != 50 || stored.APIKeyID != r.key.ID {
		t.Fatalf("stored %+v %v", stored, err)
	}
	verifyLedger(t)
}

// Refusals before the processor is asked: the feature off (403), a
// customer of no account's or another account's (400 customerId), a first
// payment the fee would eat (400 firstPaymentAmount).
func TestPixAutomaticCreateRefusals(t *testing.T) {
	t.Parallel()
	r := newPixRig(t) // the mocks expect no call
	off := r.acct
	off.Features.PixAutomatic = false
	if _, err := r.uc.CreateAuthorization(t.Context(), off, r.key, r.request("")); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("feature off: %v", err)
	}
	other := newPixRig(t)
	for name, c := range map[string]struct {
		edit  func(*pixauto.NewAuthorization)
		field string
	}{
		"unknown customer":           {func(n *pixauto.NewAuthorization) { n.CustomerID = "cus_nope" }, "customerId"},
		"another account's":          {func(n *pixauto.NewAuthorization) { n.CustomerID = other.customer }, "customerId"},
		"first payment eaten by fee": {func(n *pixauto.NewAuthorization) { n.FirstPaymentAmount = 50 }, "firstPaymentAmount"},
	} {
		n := r.request("")
		c.edit(&n)
		if _, err := r.uc.CreateAuthorization(t.Context(), r.acct, r.key, n); !errors.Is(err, domain.ErrInvalid) || !strings.HasPrefix(err.Error(), c.field) {
			t.Errorf("%s: %v, want a 400 naming %s", name, err, c.field)
		}
	}
	// An instruction of another account's authorization is not found, and
	// one of a PENDING authorization names authorizationId; neither reaches
	// the workflow.
	a := pixauto.Authorization{ID: domain.NewID(""), AccountID: other.acct.ID, APIKeyID: other.key.ID, CustomerID: other.customer,
		Frequency: pixauto.Weekly, StartDate: pixauto.Today(time.Now()), Status: pixauto.StatusPending, CreatedAt: time.Now()}
	if _, err := db.InsertAuthorization(t.Context(), sharedDB, a); err != nil {
		t.Fatal(err)
	}
	in := pixauto.NewInstruction{AuthorizationID: a.ID, Amount: 100, DueDate: pixauto.Today(time.Now()).AddDays(3)}
	if _, err := r.uc.CreateInstruction(t.Context(), r.acct, in); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("another account's authorization: %v", err)
	}
	if _, err := other.uc.CreateInstruction(t.Context(), other.acct, in); !errors.Is(err, domain.ErrInvalid) || !strings.HasPrefix(err.Error(), "authorizationId") {
		t.Errorf("a PENDING authorization: %v", err)
	}
	// A consent notice for it is signalled with its id; once answered, refused.
	other.temporal.EXPECT().SignalWithStartWorkflow(gomock.Any(), workflows.AuthorizationWorkflowID(a.ID), workflows.AuthorizationSignal,
		processor.AuthorizationNotice{AuthorizationID: a.ID, Outcome: processor.OutcomeApproved}, gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil)
	inbox := &service.Inbox{DB: sharedDB, Temporal: other.temporal, TaskQueue: taskQueue}
	if err := inbox.AuthorizationNotice(t.Context(), a.ID, processor.AuthorizationNotice{AuthorizationID: "forged", Outcome: processor.OutcomeApproved}); err != nil {
		t.Fatal(err)
	}
	a.Status = pixauto.StatusActive
	if err := db.SaveAuthorization(t.Context(), sharedDB, a); err != nil {
		t.Fatal(err)
	}
	if err := inbox.AuthorizationNotice(t.Context(), a.ID, processor.AuthorizationNotice{Outcome: processor.OutcomeApproved}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("a notice for an answered consent: %v", err)
	}
}
