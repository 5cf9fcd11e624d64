package activities_test

import (
	"errors"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/activities/activitiesmock"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/service"
)

// newSubscription stores an active monthly subscription of the fixture's
// merchant, first due on the 31st, as service.Subscriptions.Create does.
func (f *fixture) newSubscription() billing.Subscription {
	f.t.Helper()
	key, _, err := service.NewKey(f.ctx, f.db, f.merchant.ID, domain.NewKey{Name: "subs", Permissions: []string{"subscriptions/create"}})
	if err != nil {
		f.t.Fatal(err)
	}
	id := domain.NewID("sub_")
	s := billing.Subscription{ID: id, AccountID: f.merchant.ID, APIKeyID: key.ID, ExternalID: "ext_" + id, Status: billing.SubscriptionActive,
		Method: "PIX", Amount: 4990, Cycle: billing.CycleMonthly, Customer: billing.BillingCustomer{Name: "Maria", TaxID: "52998224725"},
		Anchor: "2026-01-31", NextCycle: 1, NextDueDate: "2026-01-31", CreatedAt: domain.NewTime(time.Now())}
	if err := db.InsertSubscription(f.ctx, f.db, s); err != nil {
		f.t.Fatal(err)
	}
	return s
}

func (f *fixture) subscriptionRow(id string) billing.Subscription {
	f.t.Helper()
	s, err := db.GetSubscription(f.ctx, f.db, "", id)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

// A cycle bills once and advances once: the retried activity finds the
// row past its cycle and neither bills nor moves it again.
func TestRunSubscriptionCycleBillsOnceAndAdvances(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.newSubscription()
	biller := activitiesmock.NewMockSubscriptionBiller(gomock.NewController(t))
	biller.EXPECT().Bill(gomock.Any(), gomock.Any(), 1).Return("bil_1", nil).Times(1)
	a := &activities.Subscriptions{Base: f.base(), Biller: biller}
	in := activities.CycleInput{SubscriptionID: s.ID, Cycle: 1}
	for range 2 {
		got, err := a.RunSubscriptionCycle(f.ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if got.NextCycle != 2 || got.NextDueDate != "2026-02-28" || got.LastBillingID != "bil_1" {
			t.Fatalf("after cycle 1: %+v", got)
		}
	}
	if row := f.subscriptionRow(s.ID); row.NextCycle != 2 || row.NextDueDate != "2026-02-28" || row.Anchor != "2026-01-31" {
		t.Fatalf("row %+v", row)
	}
}

// A billing the use case refuses is recorded and the subscription moves
// on; an outage is returned to be retried, and nothing moves.
func TestRunSubscriptionCycleRefusalAndOutage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.newSubscription()
	biller := activitiesmock.NewMockSubscriptionBiller(gomock.NewController(t))
	down := errors.New("db: connection refused")
	gomock.InOrder(
		biller.EXPECT().Bill(gomock.Any(), gomock.Any(), 1).Return("", down),
		biller.EXPECT().Bill(gomock.Any(), gomock.Any(), 1).Return("", domain.Invalid("cardToken", "is not a card of this account")),
	)
	a := &activities.Subscriptions{Base: f.base(), Biller: biller}
	in := activities.CycleInput{SubscriptionID: s.ID, Cycle: 1}
	if _, err := a.RunSubscriptionCycle(f.ctx, in); !errors.Is(err, down) {
		t.Fatalf("outage: %v", err)
	}
	if row := f.subscriptionRow(s.ID); row.NextCycle != 1 {
		t.Fatalf("moved during an outage: %+v", row)
	}
	got, err := a.RunSubscriptionCycle(f.ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if got.NextCycle != 2 || got.LastError != "cardToken is not a card of this account" || got.LastBillingID != "" {
		t.Fatalf("after a refused cycle: %+v", got)
	}
}

// Cancel closes the row and cancels the last cycle's billing; a retry
// cancels the billing again (idempotent there) and nothing else. A
// canceled subscription bills no more cycles.
func TestCancelSubscriptionCancelsThePendingBilling(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.newSubscription()
	biller := activitiesmock.NewMockSubscriptionBiller(gomock.NewController(t))
	biller.EXPECT().Bill(gomock.Any(), gomock.Any(), 1).Return("bil_1", nil)
	biller.EXPECT().CancelBilling(gomock.Any(), gomock.Any(), "bil_1").Return(nil).Times(1)
	// A retry finds the billing canceled already: the use case refuses, and
	// the activity takes that as done.
	biller.EXPECT().CancelBilling(gomock.Any(), gomock.Any(), "bil_1").Return(domain.Invalidf("billing bil_1 is CANCELED")).Times(1)
	a := &activities.Subscriptions{Base: f.base(), Biller: biller}
	if _, err := a.RunSubscriptionCycle(f.ctx, activities.CycleInput{SubscriptionID: s.ID, Cycle: 1}); err != nil {
		t.Fatal(err)
	}
	var first billing.Subscription
	for i := range 2 {
		got, err := a.CancelSubscription(f.ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != billing.SubscriptionCanceled || got.CanceledAt == nil {
			t.Fatalf("cancel %d: %+v", i, got)
		}
		if i == 0 {
			first = got
		} else if !got.CanceledAt.Equal(first.CanceledAt.Time) {
			t.Fatalf("a retried cancel moved canceledAt: %v → %v", first.CanceledAt, got.CanceledAt)
		}
	}
	// Bill is not expected again: a canceled subscription bills nothing.
	got, err := a.RunSubscriptionCycle(f.ctx, activities.CycleInput{SubscriptionID: s.ID, Cycle: 2})
	if err != nil || got.Status != billing.SubscriptionCanceled {
		t.Fatalf("cycle after cancel: %+v, %v", got, err)
	}
}
