package activities_test

import (
	"testing"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// A paid notice that arrives after its charge expired (the
// payer paid at the last second) is settled, not refused: once, under the
// charge's one settle key, whichever of the workflow and the Inbox books it,
// marked latePayment, with payment.paid after payment.expired; an expiry
// retried after it changes nothing.
func TestSettleChargeAfterItExpiredBooksItLateOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}
	c := f.newCharge(5000, 10)
	if status, err := a.ExpireCharge(f.ctx, c.ID); err != nil || status != domain.StatusCanceled {
		t.Fatalf("expire = %q, %v", status, err)
	}
	notice := paidNotice()
	for range 2 {
		status, err := a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: notice})
		if err != nil || status != domain.StatusCompleted {
			t.Fatalf("late settle = %q, %v", status, err)
		}
	}
	if status, err := a.ExpireCharge(f.ctx, c.ID); err != nil || status != domain.StatusCompleted {
		t.Fatalf("expire after = %q, %v", status, err)
	}
	got := f.get(c.ID, domain.TypePixIn)
	if !got.Details.V.LatePayment || got.EndToEndID == nil || *got.EndToEndID != notice.EndToEndID {
		t.Fatalf("late charge %+v", got)
	}
	f.wantEqual("events", f.events(c.ID), []string{domain.EventPaymentCreated, domain.EventPaymentExpired, domain.EventPaymentPaid})
	f.wantEqual("postings", f.postings(c.ID), []string{"charge:" + c.ID + ":settle"})
	split := c.Details.V.Split.Amount
	f.wantEqual("merchant", f.balance(f.merchant.ID).Available, c.NetAmount-split)
	f.wantEqual("partner", f.balance(f.partner.ID).Available, split)
	f.wantEqual("no second move", f.balance(f.merchant.ID).Available+f.balance(f.partner.ID).Available, money.Cents(c.NetAmount))
	f.verifyLedger()
}
