package service_test

import (
	"errors"
	"testing"
	"time"

	"github.com/lib/pq"
	"go.temporal.io/api/serviceerror"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/workflows"
)

// A scheduled run whose first attempt made its transfer but lost the
// answer (the worker died) is retried after the merchant revoked the
// schedule's key: the retry answers with the transfer that went out, not
// with a 403 that would record a paid run as failed (and let the next run
// take this run's transfer as its own). A new run under the revoked key is
// still refused.
func TestScheduledRunRetryFindsItsTransferBeforeTheKey(t *testing.T) {
	t.Parallel()
	for _, method := range []string{schedule.MethodPix, schedule.MethodInternal} {
		t.Run(method, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			acct, to := newAccount(t, "Loja Agenda"), newAccount(t, "Loja Recebe")
			fund(t, acct.ID, 10_000)
			temporal := servicemock.NewMockTemporal(gomock.NewController(t))
			temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil).AnyTimes()
			key, _, err := service.NewKey(ctx, sharedDB, acct.ID, domain.NewKey{Name: "agenda", Permissions: []string{"*"}})
			if err != nil {
				t.Fatal(err)
			}
			p := schedule.Payload{Method: method, Amount: 2_000, PixKey: "a@b.co", PixKeyType: "EMAIL", CoverFee: true}
			if method == schedule.MethodInternal {
				p = schedule.Payload{Method: method, Amount: 2_000, RecipientEmail: to.Email}
			}
			at := time.Now().Add(time.Hour)
			sc := schedule.Schedule{ID: domain.NewID(""), AccountID: acct.ID, APIKeyID: key.ID, Label: "aluguel",
				Trigger: schedule.Once, At: &at, Payload: p, Status: schedule.StatusActive, CreatedAt: time.Now()}
			if err := db.InsertSchedule(ctx, sharedDB, sc); err != nil {
				t.Fatal(err)
			}
			runs := &service.Schedules{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue,
				Transfers: &service.Transfers{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue},
				Internal:  &service.Internal{DB: sharedDB}}
			first, err := runs.Run(ctx, sc.ID, 1)
			if err != nil || first.TransactionID == "" {
				t.Fatalf("first attempt: %+v %v", first, err)
			}
			if _, err := db.RevokeKey(ctx, sharedDB, key.ID); err != nil {
				t.Fatal(err)
			}
			again, err := runs.Run(ctx, sc.ID, 1)
			if err != nil || again.TransactionID != first.TransactionID || again.RunNumber != 1 {
				t.Fatalf("retry after the key was revoked: %+v %v, want the first attempt's %s", again, err, first.TransactionID)
			}
			if _, err := runs.Run(ctx, sc.ID, 2); !errors.Is(err, domain.ErrForbidden) {
				t.Fatalf("a new run under the revoked key: %v, want forbidden", err)
			}
			var moves int
			if err := sharedDB.GetContext(ctx, &moves, `SELECT count(*) FROM transactions WHERE account_id = $1 AND type = ANY($2)`,
				acct.ID, pq.StringArray{domain.TypePixOut, domain.TypeInternalOut}); err != nil || moves != 1 {
				t.Fatalf("%d moves (%v), want the one the first attempt made", moves, err)
			}
			verifyLedger(t)
		})
	}
}

// A balance change signals each open threshold schedule of the account
// (through signal, bounded by TemporalCallTimeout): one whose workflow has
// ended is no error, and Temporal away on one is the answer (the listener
// logs it) while the others are still told.
func TestBalanceChangedSignalsEachThresholdSchedule(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, "Loja Limiar")
	key, _, err := service.NewKey(ctx, sharedDB, acct.ID, domain.NewKey{Name: "limiar", Permissions: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 2 {
		sc := schedule.Schedule{ID: domain.NewID(""), AccountID: acct.ID, APIKeyID: key.ID, Label: "limiar",
			Trigger: schedule.BalanceThreshold, Threshold: 5_000, Status: schedule.StatusActive, CreatedAt: time.Now(),
			Payload: schedule.Payload{Method: schedule.MethodPix, Amount: 1_000, PixKey: "a@b.co", PixKeyType: "EMAIL"}}
		if err := db.InsertSchedule(ctx, sharedDB, sc); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sc.ID)
	}
	for _, tc := range []struct {
		name    string
		answers []error
		want    error
	}{
		{"both told", []error{nil, nil}, nil},
		{"one ended", []error{serviceerror.NewNotFound("workflow execution already completed"), nil}, nil},
		{"Temporal away on one", []error{errors.New("connection refused"), nil}, domain.ErrUnavailable},
	} {
		temporal := servicemock.NewMockTemporal(gomock.NewController(t))
		for i, id := range ids {
			temporal.EXPECT().SignalWorkflow(gomock.Any(), workflows.ScheduleWorkflowID(id), "", workflows.BalanceSignal, acct.ID).Return(tc.answers[i])
		}
		err := (&service.Schedules{DB: sharedDB, Temporal: temporal}).BalanceChanged(ctx, acct.ID)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}
