package activities_test

import (
	"sync"
	"testing"
	"time"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

func TestSettleChargeOnceWithSplit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}
	c := f.newCharge(10000, 1000) // R$ 100.00, fee R$ 0.50, 10% of the net to the partner
	split := c.Details.V.Split
	f.wantEqual("split", split.Amount, money.Cents(995))

	n := paidNotice()
	f.resetPublished()
	for i := range 2 { // the second call is a retried activity
		status, err := a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: n})
		if err != nil {
			t.Fatalf("SettleCharge #%d: %v", i+1, err)
		}
		f.wantEqual("status", status, domain.StatusCompleted)
	}

	got := f.get(c.ID, domain.TypePixIn)
	f.wantEqual("status", got.Status, domain.StatusCompleted)
	f.wantEqual("endToEndId", *got.EndToEndID, n.EndToEndID)
	f.wantEqual("payer", *got.Payer.Ptr(), *n.Payer)
	if got.CompletedAt == nil || !near(got.CompletedAt.Time, n.At) {
		t.Errorf("completedAt = %v, want %v", got.CompletedAt, n.At)
	}
	f.wantEqual("postings", f.postings(c.ID), []string{"charge:" + c.ID + ":settle"})
	f.wantEqual("events", f.events(c.ID), []string{domain.EventPaymentCreated, domain.EventPaymentPaid})
	f.wantEqual("published", f.publishedTypes(), []string{domain.EventPaymentPaid})

	// The merchant's net minus the split is received and locked for 24 h.
	mb := f.balance(f.merchant.ID)
	f.wantEqual("merchant available", mb.Available, money.Cents(9950-995))
	f.wantEqual("merchant locked", mb.Locked24h, money.Cents(9950-995))
	f.wantEqual("merchant withdrawable", mb.Withdrawable, money.Cents(0))
	if mb.NextUnlockAt == nil || !near(*mb.NextUnlockAt, n.At.Add(domain.ReceivedLock)) {
		t.Errorf("merchant next unlock = %v, want %v", mb.NextUnlockAt, n.At.Add(domain.ReceivedLock))
	}
	// The partner's share is locked the same way, with one SPLIT_IN record.
	pb := f.balance(f.partner.ID)
	f.wantEqual("partner available", pb.Available, money.Cents(995))
	f.wantEqual("partner locked", pb.Locked24h, money.Cents(995))
	var splits []domain.Transaction
	if err := f.db.SelectContext(f.ctx, &splits, `SELECT id, account_id, type, status, amount, net_amount, end_to_end_id, details
		FROM transactions WHERE type = $1 AND account_id = $2`, domain.TypeSplitIn, f.partner.ID); err != nil {
		t.Fatal(err)
	}
	if len(splits) != 1 {
		t.Fatalf("%d SPLIT_IN records, want 1", len(splits))
	}
	s := splits[0]
	f.wantEqual("split id", s.ID, domain.DerivedID("", "split:"+c.ID))
	f.wantEqual("split account", s.AccountID, f.partner.ID)
	f.wantEqual("split status", s.Status, domain.StatusCompleted)
	f.wantEqual("split amount", s.Amount, money.Cents(995))
	f.wantEqual("split from", s.Details.V.FromChargeID, c.ID)
	f.wantEqual("split endToEndId", *s.EndToEndID, n.EndToEndID)
	// One balanced posting: the gross from PIX clearing, the fee to revenue.
	f.wantEqual("settle posting", f.moves("charge:"+c.ID+":settle"), map[string]money.Cents{
		domain.LedgerPixClearing:              -10000,
		domain.LedgerFees:                     50,
		domain.AvailableLedger(f.merchant.ID): 8955,
		domain.AvailableLedger(f.partner.ID):  995,
	})
}

// near reports whether two instants agree to the microsecond PostgreSQL keeps.
func near(a, b time.Time) bool { return a.Sub(b).Abs() <= time.Microsecond }

func TestSettleChargeConcurrentRetries(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}
	c := f.newCharge(5000, 0)
	n := paidNotice()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: n})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("SettleCharge #%d: %v", i, err)
		}
	}
	f.wantEqual("postings", f.postings(c.ID), []string{"charge:" + c.ID + ":settle"})
	f.wantEqual("events", f.events(c.ID), []string{domain.EventPaymentCreated, domain.EventPaymentPaid})
	f.wantEqual("merchant available", f.balance(f.merchant.ID).Available, money.Cents(4950))
}

func TestFailAndExpireAfterSettleChangeNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}
	c := f.settledCharge(10000)
	before, beforeBal := f.get(c.ID, domain.TypePixIn), f.balance(f.merchant.ID)

	for name, step := range map[string]func() (string, error){
		"FailCharge":   func() (string, error) { return a.FailCharge(f.ctx, c.ID) },
		"ExpireCharge": func() (string, error) { return a.ExpireCharge(f.ctx, c.ID) },
	} {
		status, err := step()
		if err != nil || status != domain.StatusCompleted {
			t.Errorf("%s = %q, %v; want COMPLETED, nil", name, status, err)
		}
	}
	after := f.get(c.ID, domain.TypePixIn)
	f.wantEqual("status", after.Status, domain.StatusCompleted)
	f.wantEqual("updatedAt", after.UpdatedAt, before.UpdatedAt)
	f.wantEqual("events", f.events(c.ID), []string{domain.EventPaymentCreated, domain.EventPaymentPaid})
	f.wantEqual("postings", f.postings(c.ID), []string{"charge:" + c.ID + ":settle"})
	f.wantEqual("balance", f.balance(f.merchant.ID), beforeBal)
}

func TestFailAndExpirePendingCharge(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}
	tests := []struct {
		name   string
		step   func(id string) (string, error)
		status string
		event  string
		// after a paid notice: a failed charge stays failed; an expired
		// one is settled late (charges_late_test.go).
		afterPaid string
	}{
		{"fail", func(id string) (string, error) { return a.FailCharge(f.ctx, id) }, domain.StatusFailed, domain.EventPaymentFailed, domain.StatusFailed},
		{"expire", func(id string) (string, error) { return a.ExpireCharge(f.ctx, id) }, domain.StatusCanceled, domain.EventPaymentExpired, domain.StatusCompleted},
	}
	for _, tt := range tests {
		c := f.newCharge(2000, 0)
		for range 2 {
			if status, err := tt.step(c.ID); err != nil || status != tt.status {
				t.Errorf("%s = %q, %v; want %q", tt.name, status, err, tt.status)
			}
		}
		f.wantEqual(tt.name+" events", f.events(c.ID), []string{domain.EventPaymentCreated, tt.event})
		f.wantEqual(tt.name+" postings", f.postings(c.ID), []string{})
		status, err := a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: paidNotice()})
		if err != nil || status != tt.afterPaid {
			t.Errorf("%s then settle = %q, %v; want %q", tt.name, status, err, tt.afterPaid)
		}
	}
	f.wantEqual("merchant available", f.balance(f.merchant.ID).Available, money.Cents(2000-f.merchant.Fees.PixIn(2000)))
}

func TestEnsureChargeWritesOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}
	c := f.newCharge(3000, 0) // the API committed it
	f.resetPublished()
	if err := a.EnsureCharge(f.ctx, c); err != nil {
		t.Fatal(err)
	}
	f.wantEqual("events after API commit", f.events(c.ID), []string{domain.EventPaymentCreated})
	f.wantEqual("published", f.publishedTypes(), []string(nil))

	lost := c // the API died before committing this one
	lost.ID = domain.NewID("")
	for range 2 {
		if err := a.EnsureCharge(f.ctx, lost); err != nil {
			t.Fatal(err)
		}
	}
	f.wantEqual("status", f.get(lost.ID, domain.TypePixIn).Status, domain.StatusPending)
	f.wantEqual("events", f.events(lost.ID), []string{domain.EventPaymentCreated})
	f.wantEqual("published", f.publishedTypes(), []string{domain.EventPaymentCreated})
}
