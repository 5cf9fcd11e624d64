package service_test

import (
	"context"
	"errors"
	"testing"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/workflows"
)

// An ambiguous start: Temporal accepted the workflow but the API saw an
// error, answered 503 and rolled back; the workflow's first step then
// wrote the transfer. The client retries with the same Idempotency-Key:
// the retry names the same transfer, finds its workflow started, and
// answers with it. Money moved once.
func TestAmbiguousStartConvergesUnderAnIdempotencyKey(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, "Loja Ambigua")
	if _, err := service.Adjust(ctx, sharedDB, acct.ID, 10_000, "funding", ""); err != nil {
		t.Fatal(err)
	}
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	transfers := &service.Transfers{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue, PublicURL: "https://api.jangada.test"}
	req := domain.NewTransfer{Amount: 2_000, Description: "fornecedor", PixKey: "a@b.co", PixKeyType: "EMAIL", CoverFee: true,
		IdempotencyKey: "retry-me-1"}
	key := domain.APIKey{ID: "key_1", AccountID: acct.ID}

	var accepted workflows.TransferInput
	first := temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_ context.Context, _ client.StartWorkflowOptions, _ any, args ...any) (client.WorkflowRun, error) {
			accepted = args[0].(workflows.TransferInput)
			return nil, errors.New("connection reset after the server accepted the start")
		})
	if _, err := transfers.Create(ctx, acct, key, req); !errors.Is(err, domain.ErrUnavailable) {
		t.Fatalf("first attempt: %v, want ErrUnavailable", err)
	}
	// The accepted workflow's first step writes the transfer the API rolled back.
	ensure := &activities.Transfers{Base: activities.Base{DB: sharedDB, PublicURL: "https://api.jangada.test"}}
	if status, err := ensure.EnsureTransfer(ctx, accepted.Transfer); err != nil || status != domain.StatusPending {
		t.Fatalf("EnsureTransfer: %s %v", status, err)
	}

	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).After(first).
		Return(nil, serviceerror.NewWorkflowExecutionAlreadyStarted("started", "", ""))
	got, err := transfers.Create(ctx, acct, key, req)
	if err != nil || got.ID != accepted.Transfer.ID {
		t.Fatalf("retry: %v %v, want the first attempt's transfer %s", got.ID, err, accepted.Transfer.ID)
	}
	b, err := db.GetBalance(ctx, sharedDB, acct.ID)
	if err != nil || b.Available != 10_000-2_050 || b.Pending != 2_050 {
		t.Fatalf("balance %+v (%v): want one debit of 20.50", b, err)
	}
	verifyLedger(t)
}
