package activities_test

import (
	"testing"
	"time"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// An operator's "paid" signal may omit at (the charge workflow's Details
// say how to send one): the deposit is then received now and locked for
// 24 h from now, not from year 1, which would make the money withdrawable
// at once and every MED on it "older than 80 days".
func TestSettleChargeWithoutAtIsReceivedNow(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}
	c := f.newCharge(10000, 0)
	n := paidNotice()
	n.At = time.Time{}
	before := time.Now()
	if _, err := a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: n}); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	got := f.get(c.ID, domain.TypePixIn)
	if got.CompletedAt == nil || got.CompletedAt.Time.Before(before.Add(-time.Millisecond)) || got.CompletedAt.Time.After(after) {
		t.Errorf("completedAt = %v, want between %v and %v", got.CompletedAt, before, after)
	}
	mb := f.balance(f.merchant.ID)
	f.wantEqual("merchant locked", mb.Locked24h, money.Cents(9950))
	f.wantEqual("merchant withdrawable", mb.Withdrawable, money.Cents(0))
	if mb.NextUnlockAt == nil || mb.NextUnlockAt.Before(before.Add(domain.ReceivedLock-time.Millisecond)) {
		t.Errorf("merchant next unlock = %v, want about %v", mb.NextUnlockAt, before.Add(domain.ReceivedLock))
	}
}
