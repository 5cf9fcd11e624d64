package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/common/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/poll"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/workflows"
)

// newTransfers is Transfers on a mocked Temporal, for an account funded with
// R$ 100.00.
func newTransfers(t *testing.T, name string) (*service.Transfers, *servicemock.MockTemporal, domain.Account) {
	t.Helper()
	acct := newAccount(t, name)
	fund(t, acct.ID, 10_000)
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	return &service.Transfers{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue, PublicURL: "https://api.jangada.test"}, temporal, acct
}

func pixOut(idempotencyKey string) domain.NewTransfer {
	return domain.NewTransfer{Amount: 2_000, Description: "fornecedor", PixKey: "a@b.co", PixKeyType: "EMAIL", CoverFee: true,
		IdempotencyKey: idempotencyKey}
}

// pendingLaunches is how many workflow intents the resource has.
func pendingLaunches(t *testing.T, id string) int {
	t.Helper()
	var n int
	if err := sharedDB.GetContext(t.Context(), &n, `SELECT count(*) FROM workflow_launches WHERE resource_id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return n
}

// While a create waits on Temporal it holds no transaction: its records
// are committed (another connection sees them) and the account's balance
// row is free (another transaction locks it at once). The start has a
// deadline of at most TemporalCallTimeout.
func TestCreateHoldsNoTransactionAcrossTheStart(t *testing.T) {
	t.Parallel()
	transfers, temporal, acct := newTransfers(t, "Loja Sem Trava")
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(ctx context.Context, _ client.StartWorkflowOptions, _ any, args ...any) (client.WorkflowRun, error) {
			if deadline, ok := ctx.Deadline(); !ok || time.Until(deadline) > service.TemporalCallTimeout {
				t.Errorf("start without a deadline of at most %v", service.TemporalCallTimeout)
			}
			id := args[0].(workflows.TransferInput).Transfer.ID
			if _, err := db.TransactionByID(context.Background(), sharedDB, id, domain.TypePixOut); err != nil {
				t.Errorf("transfer not committed before the start: %v", err)
			}
			tx, err := sharedDB.BeginTxx(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.Exec(`SET LOCAL lock_timeout = '100ms'`); err != nil {
				t.Fatal(err)
			}
			if err := db.LockLedgerAccounts(context.Background(), tx, domain.AvailableLedger(acct.ID)); err != nil {
				t.Errorf("balance row locked during the start: %v", err)
			}
			return nil, nil
		})
	tr, err := transfers.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, pixOut(""))
	if err != nil {
		t.Fatal(err)
	}
	waitLaunchesCleared(t, tr.ID) // cleared in the background, after the answer
}

// Temporal away: the create still answers with the transfer it committed
// (a 503 would invite a retry that pays twice) and leaves the workflow's
// intent; once due, the sweeper starts the workflow and clears it. A
// start the server had in fact accepted counts as started.
func TestStartFailureLeavesTheIntentToTheSweeper(t *testing.T) {
	t.Parallel()
	transfers, temporal, acct := newTransfers(t, "Loja Temporal Fora")
	first := temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
		Return(nil, context.DeadlineExceeded)
	tr, err := transfers.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, pixOut(""))
	if err != nil || tr.Status != domain.StatusPending {
		t.Fatalf("Create with Temporal away = %+v, %v; want the PENDING transfer", tr, err)
	}
	if n := pendingLaunches(t, tr.ID); n != 1 {
		t.Fatalf("%d workflow intents, want 1", n)
	}
	// Not due yet: the request had its grace, so a sweep leaves it.
	sweeper := &service.IntentSweeper{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue}
	if _, err := sweeper.Sweep(t.Context()); err != nil { // Temporal may not be called: the mock expects nothing yet
		t.Fatal(err)
	}
	if n := pendingLaunches(t, tr.ID); n != 1 {
		t.Fatalf("a sweep within the grace took the intent")
	}
	makeDue(t, tr.ID)
	var started workflows.TransferInput
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).After(first).DoAndReturn(
		func(_ context.Context, o client.StartWorkflowOptions, _ any, args ...any) (client.WorkflowRun, error) {
			if o.ID == workflows.TransferWorkflowID(tr.ID) { // other tests' intents share the table
				started = args[0].(workflows.TransferInput)
			}
			return nil, serviceerror.NewWorkflowExecutionAlreadyStarted("accepted after all", "", "")
		}).MinTimes(1)
	// The workflow found under the id is the transfer's own.
	temporal.EXPECT().DescribeWorkflowExecution(gomock.Any(), gomock.Any(), "").DoAndReturn(
		func(_ context.Context, id, _ string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
			return describedAs(t, id), nil
		}).AnyTimes()
	sweepUntilClear(t, sweeper, tr.ID)
	if started.Transfer.ID != tr.ID || started.Transfer.Details.V.Debit != 2_050 {
		t.Errorf("sweeper's workflow input = %+v", started.Transfer)
	}
	b, err := db.GetBalance(t.Context(), sharedDB, acct.ID)
	if err != nil || b.Available != 10_000-2_050 || b.Pending != 2_050 {
		t.Fatalf("balance %+v (%v): want one reserve of 20.50", b, err)
	}
	verifyLedger(t)
}

// A retry under the same Idempotency-Key, after an attempt whose start
// failed, names the same transfer, finds it committed, and answers with
// it: money is reserved once.
func TestRetryUnderAnIdempotencyKeyConverges(t *testing.T) {
	t.Parallel()
	transfers, temporal, acct := newTransfers(t, "Loja Ambigua")
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
		Return(nil, errors.New("connection reset after the server accepted the start"))
	a, err := transfers.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, pixOut("retry-me-1"))
	if err != nil {
		t.Fatal(err)
	}
	// The retry answers with what the first attempt committed before
	// anything else (no second start: the mock refuses one); the intent
	// the failed start left is the sweeper's.
	b, err := transfers.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, pixOut("retry-me-1"))
	if err != nil || b.ID != a.ID {
		t.Fatalf("retry: %v %v, want the first attempt's transfer %s", b.ID, err, a.ID)
	}
	bal, err := db.GetBalance(t.Context(), sharedDB, acct.ID)
	if err != nil || bal.Available != 10_000-2_050 || bal.Pending != 2_050 {
		t.Fatalf("balance %+v (%v): want one debit of 20.50", bal, err)
	}
	verifyLedger(t)
}

// waitLaunchesCleared waits (bounded) until the resource has no workflow
// intent left.
func waitLaunchesCleared(t *testing.T, id string) {
	t.Helper()
	poll.Until(t, 10*time.Second, "the workflow intent of "+id+" to be cleared after a successful start", func() bool { return pendingLaunches(t, id) == 0 })
}

// makeDue ends a workflow intent's grace, as if LaunchGrace had passed.
func makeDue(t *testing.T, id string) {
	t.Helper()
	if _, err := sharedDB.ExecContext(t.Context(), `UPDATE workflow_launches SET due_at = now() WHERE resource_id = $1`, id); err != nil {
		t.Fatal(err)
	}
}

// sweepUntilClear sweeps until the resource's intent is gone (other tests'
// intents share the table, so one sweep may not reach it).
func sweepUntilClear(t *testing.T, l *service.IntentSweeper, id string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for pendingLaunches(t, id) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("intent of %s still pending after sweeping", id)
		}
		if _, err := l.Sweep(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
}

// describedAs is the description of a workflow of a transfer's id started
// for that transfer (a test's account is read from the database).
func describedAs(t *testing.T, workflowID string) *workflowservice.DescribeWorkflowExecutionResponse {
	t.Helper()
	id := strings.TrimPrefix(workflowID, "transfer/")
	tr, err := db.TransactionByID(t.Context(), sharedDB, id, domain.TypePixOut)
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]*common.Payload{}
	for k, v := range map[string]string{workflows.AccountIDKey.GetName(): tr.AccountID, workflows.ResourceIDKey.GetName(): tr.ID,
		workflows.ResourceTypeKey.GetName(): tr.Type} {
		p, err := converter.GetDefaultDataConverter().ToPayload(v)
		if err != nil {
			t.Fatal(err)
		}
		fields[k] = p
	}
	return &workflowservice.DescribeWorkflowExecutionResponse{WorkflowExecutionInfo: &workflow.WorkflowExecutionInfo{
		SearchAttributes: &common.SearchAttributes{IndexedFields: fields}}}
}

// A sweep that cannot start a workflow (Temporal away) stops there and
// leaves the intent it tried, and the ones it claimed but did not try, due
// again within LaunchRetry instead of their lease: Temporal back after a
// blip, the next sweeps start them within seconds.
func TestFailedStartLetsTheNextSweepsTryAgain(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	d := dbtest.New(t) // its own intents table: a sweep claims every due intent
	acct, err := service.NewAccount(ctx, d, "Loja Varredura", "varredura@jangada.dev", "52998224725")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := service.Adjust(ctx, d, acct.ID, 10_000, "fundos", "fundos-"+acct.ID); err != nil {
		t.Fatal(err)
	}
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
		Return(nil, context.DeadlineExceeded).AnyTimes()
	transfers := &service.Transfers{DB: d, Temporal: temporal, TaskQueue: taskQueue, PublicURL: "https://api.jangada.test"}
	for _, key := range []string{"varredura-1", "varredura-2", "varredura-3"} {
		if _, err := transfers.Create(ctx, acct, domain.APIKey{ID: "key_1"}, pixOut(key)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.ExecContext(ctx, `UPDATE workflow_launches SET due_at = now()`); err != nil {
		t.Fatal(err)
	}
	sweeper := &service.IntentSweeper{DB: d, Temporal: temporal, TaskQueue: taskQueue}
	if n, err := sweeper.Sweep(ctx); n != 0 || err == nil {
		t.Fatalf("a sweep with Temporal away started %d (err %v)", n, err)
	}
	var total, soon, failed int
	if err := d.QueryRowContext(ctx, `SELECT count(*),
		count(*) FILTER (WHERE due_at <= now() + make_interval(secs => $1)),
		count(*) FILTER (WHERE last_error IS NOT NULL) FROM workflow_launches`,
		(service.LaunchRetry+time.Second).Seconds()).Scan(&total, &soon, &failed); err != nil {
		t.Fatal(err)
	}
	if total != 3 || soon != 3 || failed != 1 {
		t.Fatalf("%d intents, %d due within %v, %d with the failure recorded; want 3, 3, 1", total, soon, service.LaunchRetry, failed)
	}
}
