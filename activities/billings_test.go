package activities_test

import (
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	billingdom "github.com/jangada/jangada/domain/billing"
	storedom "github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

// newBilling stores a PENDING billing of amount by method for the
// fixture's merchant, priced with its fees (notification fee 0.99), as
// service.Billings.Create does.
func (f *fixture) newBilling(method string, amount money.Cents) billingdom.Billing {
	f.t.Helper()
	fees := f.merchant.Fees
	fees.BillingNotification = 99
	fee, notif, net, err := fees.BillingPrice(method, amount)
	if err != nil {
		f.t.Fatal(err)
	}
	cust, err := db.FindOrCreateCustomer(f.ctx, f.db, storedom.Customer{AccountID: f.merchant.ID, Name: "Ana", Document: "52998224725"})
	if err != nil {
		f.t.Fatal(err)
	}
	b := billingdom.Billing{
		ID: domain.NewID("bil_"), AccountID: f.merchant.ID, Method: method, Status: billingdom.BillingPending, Amount: amount,
		FeeAmount: fee, NotificationFee: notif, NetAmount: net, InstallmentCount: 1, DueDate: domain.Today(time.Now()).AddDate(0, 0, 3),
		CustomerID: &cust.ID, Customer: domain.SomeJSON(billingdom.BillingCustomer{ID: cust.ID, Name: "Ana", TaxID: "52998224725"}),
		PageToken: domain.NewID("pg_"), CreatedAt: domain.NewTime(time.Now()),
	}
	f.inTx(func(tx *sqlx.Tx) error {
		fresh, err := activities.InsertBilling(f.ctx, tx, b, nil)
		if err == nil && !fresh {
			f.t.Fatal("InsertBilling: not new")
		}
		return err
	})
	return b
}

func (f *fixture) billing(id string) billingdom.Billing {
	f.t.Helper()
	b, err := db.BillingByID(f.ctx, f.db, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

func TestPayBoletoOncePostsGrossFeesAndLockedNet(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Billings{Base: f.base()}
	b := f.newBilling(domain.MethodBoleto, 10000) // fee 1.99, notification 0.99
	paidAt := time.Now().UTC()
	for i := range 2 { // the second call is a retried activity
		status, err := a.PayBilling(f.ctx, activities.BillingPaidInput{BillingID: b.ID, Notice: processor.BillingNotice{Outcome: processor.OutcomePaid, At: paidAt, ReferenceID: "ref"}})
		if err != nil || status != billingdom.BillingReceived {
			t.Fatalf("PayBilling #%d = %s, %v", i+1, status, err)
		}
	}
	got := f.billing(b.ID)
	line := domain.DerivedID("", "billing:"+b.ID)
	if got.PaidAt == nil || got.AccountTransactionID == nil || *got.AccountTransactionID != line || got.EstimatedCreditDate == nil {
		t.Fatalf("paid billing = %+v", got)
	}
	f.wantEqual("postings", f.postings(line), []string{"billing:" + b.ID + ":paid"})
	f.wantEqual("paid posting", f.moves("billing:"+b.ID+":paid"), map[string]money.Cents{
		billingdom.LedgerBillingClearing:      -10000,
		domain.LedgerFees:                     199 + 99,
		domain.AvailableLedger(f.merchant.ID): 10000 - 199 - 99,
	})
	// The net is locked until the credit date (D+1 for a boleto).
	bal := f.balance(f.merchant.ID)
	f.wantEqual("available", bal.Available, money.Cents(9702))
	f.wantEqual("withdrawable", bal.Withdrawable, money.Cents(0))
	cust, err := db.GetCustomer(f.ctx, f.db, f.merchant.ID, *b.CustomerID)
	if err != nil || cust.Transactions < 1 || cust.Volume < 10000 {
		t.Errorf("customer payments = %+v, %v", cust, err)
	}
	// Overdue and cancel no longer apply.
	if s, err := a.OverdueBilling(f.ctx, b.ID); err != nil || s != billingdom.BillingReceived {
		t.Errorf("overdue of a paid billing = %s, %v", s, err)
	}
}

func TestCardBillingConfirmedThenReceivedAtItsCreditDate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Billings{Base: f.base()}
	b := f.newBilling(domain.MethodCardCredit, 20000)
	at := time.Now().UTC()
	if s, err := a.PayBilling(f.ctx, activities.BillingPaidInput{BillingID: b.ID, Notice: processor.BillingNotice{Outcome: processor.OutcomePaid, At: at}}); err != nil || s != billingdom.BillingConfirmed {
		t.Fatalf("PayBilling = %s, %v", s, err)
	}
	got := f.billing(b.ID)
	if want := domain.Today(at.AddDate(0, 0, 30)); !got.EstimatedCreditDate.Equal(want) {
		t.Errorf("estimatedCreditDate = %s, want %s", got.EstimatedCreditDate, want)
	}
	if s, err := a.ReceiveBilling(f.ctx, b.ID); err != nil || s != billingdom.BillingReceived {
		t.Fatalf("ReceiveBilling = %s, %v", s, err)
	}
	declined := f.newBilling(domain.MethodCardVoucher, 5000)
	if s, err := a.FailBilling(f.ctx, activities.BillingFailInput{BillingID: declined.ID, Reason: "declined"}); err != nil || s != billingdom.BillingFailed {
		t.Fatalf("FailBilling = %s, %v", s, err)
	}
	f.wantEqual("declined postings", f.moves("billing:"+declined.ID+":paid"), map[string]money.Cents{})
}

func TestBillingRefundsPartialThenTheRestReverseThePaidPostingExactly(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Billings{Base: f.base()}
	b := f.newBilling(domain.MethodBoleto, 10000)
	f.fund(f.merchant.ID, 100000)
	if _, err := a.PayBilling(f.ctx, activities.BillingPaidInput{BillingID: b.ID, Notice: processor.BillingNotice{Outcome: processor.OutcomePaid, At: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	// Refund ids are unique (derived): each statement line is its refund's.
	u := domain.NewID("")
	refund := func(id string, before, amount money.Cents) (billingdom.Billing, error) {
		id += u
		var out billingdom.Billing
		err := sqlxTx(f, func(tx *sqlx.Tx) error {
			var err error
			out, err = activities.RefundBilling(f.ctx, tx, b.ID, before, activities.BillingRefundInput{RefundID: id, Amount: amount, At: time.Now()})
			return err
		})
		return out, err
	}
	got, err := refund("r1", 0, 3333)
	if err != nil || got.Status != billingdom.BillingPartiallyRefunded || got.RefundedAmount != 3333 {
		t.Fatalf("first refund = %+v, %v", got, err)
	}
	// The same refund again books nothing more.
	if got, err = refund("r1", 3333, 3333); err != nil || got.RefundedAmount != 3333 {
		t.Fatalf("repeated refund = %+v, %v", got, err)
	}
	// More than what is left moves nothing.
	if _, err := refund("r2", 3333, 6668); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("refund above what is left: %v", err)
	}
	// A refund decided on stale figures moves nothing.
	if _, err := refund("r3", 0, 100); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("stale refund: %v", err)
	}
	if got, err = refund("r4", 3333, 6667); err != nil || got.Status != billingdom.BillingRefunded || got.RefundedAmount != 10000 {
		t.Fatalf("last refund = %+v, %v", got, err)
	}
	// Paid + both refunds leave every account as before the payment.
	total := map[string]money.Cents{}
	for _, key := range []string{"billing:" + b.ID + ":paid", "billing:" + b.ID + ":refund:r1" + u, "billing:" + b.ID + ":refund:r4" + u} {
		for acct, v := range f.moves(key) {
			total[acct] += v
		}
	}
	for acct, v := range total {
		if v != 0 {
			t.Errorf("%s moved %s net after full refunds", acct, v)
		}
	}
	f.wantEqual("refund postings", len(total) > 0, true)
}

func sqlxTx(f *fixture, fn func(tx *sqlx.Tx) error) error { return db.InTx(f.ctx, f.db, fn) }

func TestPixBillingMovesWithItsCharge(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	charges := &activities.Charges{Base: f.base()}
	b := f.newBilling(domain.MethodPix, 10000)
	c := f.ownedChargeBy(activities.OwnerBilling, b.ID, 10000)
	for range 2 {
		if _, err := charges.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: paidNotice()}); err != nil {
			t.Fatal(err)
		}
	}
	got := f.billing(b.ID)
	if got.Status != billingdom.BillingReceived || got.AccountTransactionID == nil || *got.AccountTransactionID != c.ID || got.PaidAt == nil {
		t.Fatalf("billing after its charge was paid = %+v", got)
	}
	f.wantEqual("notification posting", f.moves("billing:"+b.ID+":notification"), map[string]money.Cents{
		domain.LedgerFees: 99, domain.AvailableLedger(f.merchant.ID): -99,
	})
	// An expired charge (at the end of the due date) makes it OVERDUE.
	b2 := f.newBilling(domain.MethodPix, 10000)
	c2 := f.ownedChargeBy(activities.OwnerBilling, b2.ID, 10000)
	if _, err := charges.ExpireCharge(f.ctx, c2.ID); err != nil {
		t.Fatal(err)
	}
	f.wantEqual("expired", f.billing(b2.ID).Status, billingdom.BillingOverdue)
}

// ownedChargeBy stores a PENDING charge of amount owned by kind's id.
func (f *fixture) ownedChargeBy(kind, id string, amount money.Cents) domain.Transaction {
	f.t.Helper()
	c := f.newCharge(amount, 0)
	d := c.Details.V
	d.Owner = &domain.ChargeOwner{Kind: kind, ID: id}
	if _, err := f.db.ExecContext(f.ctx, `UPDATE transactions SET details = $2 WHERE id = $1`, c.ID, domain.SomeJSON(d)); err != nil {
		f.t.Fatal(err)
	}
	return f.get(c.ID, domain.TypePixIn)
}
