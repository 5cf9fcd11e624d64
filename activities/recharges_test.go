package activities_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
)

// recharge builds a PENDING recharge as service.Recharges.Create does.
func (f *fixture) recharge(amount money.Cents) domain.Transaction {
	return domain.Transaction{
		ID: domain.NewID(""), AccountID: f.merchant.ID, APIKeyID: ptr("key_test"), Type: domain.TypeMobileRecharge,
		Status: domain.StatusPending, Amount: amount, NetAmount: amount, Description: "Recarga VIVO 11937654321",
		CreatedAt: domain.NewTime(time.Now().UTC()),
		Details:   domain.SomeJSON(domain.Details{Recharge: &domain.RechargeBlock{Phone: "11937654321", Operator: "VIVO"}}),
	}
}

// newRecharge stores a recharge and reserves its amount, as the API does.
func (f *fixture) newRecharge(amount money.Cents) domain.Transaction {
	f.t.Helper()
	t := f.recharge(amount)
	f.inTx(func(tx *sqlx.Tx) error { return activities.InsertRecharge(f.ctx, tx, t) })
	return t
}

func (f *fixture) wantBalance(available, pending money.Cents) {
	f.t.Helper()
	b := f.balance(f.merchant.ID)
	if b.Available != available || b.Pending != pending {
		f.t.Fatalf("balance available %s pending %s, want %s and %s", b.Available, b.Pending, available, pending)
	}
}

func TestInsertRechargeReservesWithdrawableMoneyOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 5000)
	r := f.recharge(2000)
	for range 2 { // the use case, then the workflow's guard
		f.inTx(func(tx *sqlx.Tx) error { return activities.InsertRecharge(f.ctx, tx, r) })
	}
	f.wantBalance(3000, 2000)
	f.wantEqual("postings", f.postings(r.ID), []string{"recharge:" + r.ID + ":reserve"})
	f.wantEqual("events", f.events(r.ID), []string{}) // no recharge events in the catalog

	big := f.recharge(3001)
	err := db.InTx(f.ctx, f.db, func(tx *sqlx.Tx) error { return activities.InsertRecharge(f.ctx, tx, big) })
	if !errors.Is(err, domain.ErrInsufficientBalance) {
		t.Fatalf("recharge above the withdrawable money: %v", err)
	}
	f.wantBalance(3000, 2000)
	a := &activities.Recharges{Base: f.base()}
	if status, err := a.EnsureRecharge(f.ctx, big); err != nil || status != domain.StatusFailed {
		t.Fatalf("EnsureRecharge short of money = %s, %v; want FAILED", status, err)
	}
	f.wantEqual("postings of the failed one", f.postings(big.ID), []string{})
}

func TestSubmitRechargeCallsTheOperatorOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 5000)
	r := f.newRecharge(1500)
	proc := processormock.NewMockRecharges(gomock.NewController(t))
	proc.EXPECT().Recharge(gomock.Any(), processor.RechargeRequest{ID: r.ID, Phone: "11937654321", Operator: "VIVO", Amount: 1500}).
		Return(processor.Submission{ReferenceID: "rch-1"}, nil).Times(2) // the operator is idempotent on our id
	a := &activities.Recharges{Base: f.base(), Processor: proc}
	for i := range 2 {
		if err := a.SubmitRecharge(f.ctx, r.ID); err != nil {
			t.Fatalf("SubmitRecharge #%d: %v", i+1, err)
		}
	}
	got := f.get(r.ID, domain.TypeMobileRecharge)
	f.wantEqual("status", got.Status, domain.StatusPending) // still cancellable
	f.wantEqual("referenceId", *got.ReferenceID, "rch-1")
}

// The merchant cancels between SubmitRecharge's read and its call to the
// operator, which refuses the withdrawn top-up (ErrRechargeWithdrawn): the
// submit ends the recharge CANCELED with its reserve returned once (the
// cancel use case's own step finds it done), and nothing is delivered.
func TestSubmitRechargeRefusedAsWithdrawnIsCancelled(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 5000)
	r := f.newRecharge(1500)
	proc := processormock.NewMockRecharges(gomock.NewController(t))
	proc.EXPECT().Recharge(gomock.Any(), gomock.Any()).Return(processor.Submission{}, processor.ErrRechargeWithdrawn)
	a := &activities.Recharges{Base: f.base(), Processor: proc}
	if err := a.SubmitRecharge(f.ctx, r.ID); err != nil {
		t.Fatalf("SubmitRecharge of a withdrawn top-up = %v, want nil (cancelled)", err)
	}
	if got, err := activities.CancelRecharge(f.ctx, ptr(f.base()), r.ID); err != nil || got.Status != domain.StatusCanceled {
		t.Fatalf("the cancel use case's step after it = %s, %v", got.Status, err)
	}
	f.wantBalance(5000, 0)
	f.wantEqual("postings", f.postings(r.ID), []string{"recharge:" + r.ID + ":reserve", "recharge:" + r.ID + ":release"})
}

func TestCompleteRechargePaysTheOperatorOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 5000)
	r := f.newRecharge(2000)
	a := &activities.Recharges{Base: f.base()}
	n := activities.RechargeNoticeInput{ID: r.ID, Notice: processor.RechargeNotice{Outcome: processor.OutcomeCompleted, At: time.Now()}}
	for range 2 {
		if status, err := a.CompleteRecharge(f.ctx, n); err != nil || status != domain.StatusCompleted {
			t.Fatalf("CompleteRecharge = %s, %v", status, err)
		}
	}
	f.wantBalance(3000, 0)
	key := "recharge:" + r.ID + ":complete"
	f.wantEqual("postings", f.postings(r.ID), []string{"recharge:" + r.ID + ":reserve", key})
	f.wantEqual("moves", f.moves(key), map[string]money.Cents{domain.PendingLedger(f.merchant.ID): -2000, domain.LedgerRechargeClearing: 2000})
	if got := f.get(r.ID, domain.TypeMobileRecharge); got.CompletedAt == nil || mobile.CanBeCancelled(got) {
		t.Fatalf("completed recharge: %+v", got)
	}
	if _, err := activities.CancelRecharge(f.ctx, ptr(f.base()), r.ID); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("cancel after delivery: %v, want a 400", err)
	}
	f.wantBalance(3000, 0)
}

func TestCancelRechargeReturnsTheMoneyExactlyOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 5000)
	r := f.newRecharge(2000)
	for range 2 { // a retried cancel answers the cancelled record
		got, err := activities.CancelRecharge(f.ctx, ptr(f.base()), r.ID)
		if err != nil || got.Status != domain.StatusCanceled {
			t.Fatalf("CancelRecharge = %s, %v", got.Status, err)
		}
	}
	f.wantBalance(5000, 0)
	f.wantEqual("postings", f.postings(r.ID), []string{"recharge:" + r.ID + ":reserve", "recharge:" + r.ID + ":release"})
	a := &activities.Recharges{Base: f.base()}
	n := activities.RechargeNoticeInput{ID: r.ID, Notice: processor.RechargeNotice{Outcome: processor.OutcomeCompleted}}
	if status, err := a.CompleteRecharge(f.ctx, n); err != nil || status != domain.StatusCanceled {
		t.Fatalf("delivery after the cancel = %s, %v; want it left CANCELED", status, err)
	}
	if status, err := a.FailRecharge(f.ctx, n); err != nil || status != domain.StatusCanceled {
		t.Fatalf("failure after the cancel = %s, %v", status, err)
	}
	f.wantBalance(5000, 0)
	tr := f.newTransfer(100, true)
	if _, err := activities.CancelRecharge(f.ctx, ptr(f.base()), tr.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("cancelling a PIX out as a recharge: %v", err)
	}
}

func TestFailRechargeReturnsTheReserve(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 5000)
	r := f.newRecharge(1000)
	a := &activities.Recharges{Base: f.base()}
	n := activities.RechargeNoticeInput{ID: r.ID, Notice: processor.RechargeNotice{Outcome: processor.OutcomeFailed}}
	for range 2 {
		if status, err := a.FailRecharge(f.ctx, n); err != nil || status != domain.StatusFailed {
			t.Fatalf("FailRecharge = %s, %v", status, err)
		}
	}
	f.wantBalance(5000, 0)
}

// A cancellation racing the delivery: both take the recharge's row lock,
// exactly one wins, and the money is exact either way.
func TestCancelRacingDeliveryHasOneWinner(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const n, amount = 20, money.Cents(1000)
	f.fund(f.merchant.ID, n*amount)
	a := &activities.Recharges{Base: f.base()}
	delivered := 0
	for range n {
		r := f.newRecharge(amount)
		var wg sync.WaitGroup
		var cancelErr error
		var status string
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, cancelErr = activities.CancelRecharge(f.ctx, ptr(f.base()), r.ID)
		}()
		go func() {
			defer wg.Done()
			var err error
			status, err = a.CompleteRecharge(f.ctx, activities.RechargeNoticeInput{ID: r.ID, Notice: processor.RechargeNotice{Outcome: processor.OutcomeCompleted}})
			if err != nil {
				t.Error(err)
			}
		}()
		wg.Wait()
		got := f.get(r.ID, domain.TypeMobileRecharge)
		switch {
		case cancelErr == nil && got.Status == domain.StatusCanceled && status == domain.StatusCanceled:
		case errors.Is(cancelErr, domain.ErrInvalid) && got.Status == domain.StatusCompleted && status == domain.StatusCompleted:
			delivered++
		default:
			t.Fatalf("race: cancel %v, delivery %s, stored %s", cancelErr, status, got.Status)
		}
	}
	f.wantBalance(money.Cents(n-delivered)*amount, 0)
}
