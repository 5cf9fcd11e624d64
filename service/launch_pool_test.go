package service_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"go.temporal.io/sdk/client"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/poll"
	"github.com/jangada/jangada/workflows"
)

// blockedStarts makes the rig's Temporal hold every start until release is
// closed, and reports each start's charge id on started.
func (r *chargeRig) blockedStarts(times int) (started chan string, release chan struct{}) {
	started, release = make(chan string, times), make(chan struct{})
	r.temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(ctx context.Context, _ client.StartWorkflowOptions, _ any, args ...any) (client.WorkflowRun, error) {
			started <- args[0].(workflows.ChargeInput).Charge.ID
			select {
			case <-release:
			case <-ctx.Done():
			}
			return nil, ctx.Err()
		}).Times(times)
	return started, release
}

// A charge create answers once its records and intent are committed: its
// workflow's start runs beside the answer, and the intent stays until the
// start has succeeded.
func TestChargeCreateAnswersBeforeItsStartEnds(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Loja Resposta")
	r := newChargeRig(t)
	r.expectNewCharge()
	started, release := r.blockedStarts(1)

	created, err := r.charges.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, newCharge(1000))
	if err != nil {
		t.Fatal(err)
	}
	// The create has answered; its start is under way, and held.
	if id := <-started; id != created.Charge.ID {
		t.Fatalf("started %s, created %s", id, created.Charge.ID)
	}
	if n := pendingLaunches(t, created.Charge.ID); n != 1 {
		t.Fatalf("intents while the start runs = %d, want 1", n)
	}
	close(release)
	r.charges.Starts.Wait()
	waitLaunchesCleared(t, created.Charge.ID)
}

// With every slot taken, a create waits for one to free before it answers,
// so starts never pile up beyond the bound; a create whose client gives up
// while it waits leaves its start to the sweeper (the intent stays, and
// its start is never called).
func TestChargeCreatesWaitForAFreeStartSlot(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Loja Fila")
	r := newChargeRig(t)
	r.charges.Starts.Slots = 1
	r.expectNewCharge()
	r.expectNewCharge()
	r.expectNewCharge()
	started, release := r.blockedStarts(2)
	charges := func() int {
		var n int
		if err := sharedDB.Get(&n, `SELECT count(*) FROM transactions WHERE account_id = $1`, acct.ID); err != nil {
			t.Error(err)
		}
		return n
	}

	first, err := r.charges.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, newCharge(1000))
	if err != nil {
		t.Fatal(err)
	}
	if id := <-started; id != first.Charge.ID { // the only slot is now held
		t.Fatalf("started %s, created %s", id, first.Charge.ID)
	}

	// A create whose client goes away once its charge is committed, while
	// it waits for the slot: the commit hook runs in the create's goroutine
	// right after its statement, so the cancel lands after the insert.
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(db.OnEventsCommitted(func(_ *sqlx.DB, evs []domain.Event) {
		for _, ev := range evs {
			var data struct{ Amount float64 }
			if ev.AccountID == acct.ID && json.Unmarshal(ev.Data, &data) == nil && data.Amount == 11 {
				cancel()
			}
		}
	}))
	gaveUp, err := r.charges.Create(ctx, acct, domain.APIKey{ID: "key_1"}, newCharge(1100))
	if err != nil {
		t.Fatal(err)
	}
	if ctx.Err() == nil {
		t.Fatal("the commit hook did not see the second charge's event")
	}
	second := gaveUp.Charge

	answered := make(chan domain.Transaction, 1)
	go func() {
		c, err := r.charges.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, newCharge(1200))
		if err != nil {
			t.Error(err)
		}
		answered <- c.Charge
	}()
	poll.Until(t, 10*time.Second, "the third charge to commit", func() bool { return charges() == 3 })
	select {
	case c := <-answered:
		t.Fatalf("charge %s answered while the only start slot was taken", c.ID)
	default:
	}
	close(release) // the first start ends and frees the slot
	third := <-answered
	if id := <-started; id != third.ID {
		t.Fatalf("second start was %s, want the third charge %s", id, third.ID)
	}
	r.charges.Starts.Wait()
	if n := pendingLaunches(t, second.ID); n != 1 {
		t.Fatalf("intents of the create that gave up = %d, want 1 (the sweeper's)", n)
	}
}

// Wait returns only once the starts handed over before it have returned
// (shutdown waits for them before the Temporal client closes), and the
// LaunchPool takes hand-overs again afterwards.
func TestStarterWaitWaitsForStartsInFlight(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Loja Espera")
	r := newChargeRig(t)
	r.expectNewCharge()
	r.expectNewCharge()
	var returned atomic.Bool
	release := make(chan struct{})
	r.temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(ctx context.Context, _ client.StartWorkflowOptions, _ any, _ ...any) (client.WorkflowRun, error) {
			<-release
			returned.Store(true)
			return nil, nil
		}).Times(2)

	if _, err := r.charges.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, newCharge(1000)); err != nil {
		t.Fatal(err)
	}
	waited := make(chan bool)
	go func() {
		r.charges.Starts.Wait()
		waited <- returned.Load()
	}()
	close(release)
	if !<-waited {
		t.Fatal("Wait returned before the start in flight did")
	}
	if _, err := r.charges.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, newCharge(1100)); err != nil {
		t.Fatal(err)
	}
	r.charges.Starts.Wait()
}
