package activities_test

import (
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
)

// requestRefund puts a full refund on the deposit inside one database
// transaction, as service.Refunds.Create does: the merchant pays back what
// it kept plus the PIX out fee.
func (f *fixture) requestRefund(depositID string) domain.Transaction {
	f.t.Helper()
	var out domain.Transaction
	f.inTx(func(tx *sqlx.Tx) error {
		d, err := db.LockTransaction(f.ctx, tx, depositID)
		if err != nil {
			return err
		}
		fee := f.merchant.Fees.PixOut(d.Amount)
		d.Details.V.Refund = &domain.RefundBlock{
			Status: domain.StatusPending, RefundID: "dev-1", RequestedAt: domain.NewTime(time.Now()),
			DebitNet: d.NetAmount + fee, DepositNet: d.NetAmount, TransferFee: fee, Nature: "ORIGINAL",
			StatementID: domain.DerivedID("", "refund:"+d.ID),
		}
		out = d
		return activities.RequestRefund(f.ctx, tx, d, publicURL)
	})
	return out
}

func TestRefundSubmitOnceCompleteOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 1000)
	d := f.settledCharge(10000) // R$ 99.50 kept, locked for 24 h
	f.wantEqual("before", f.balance(f.merchant.ID).Withdrawable, money.Cents(1000))

	d = f.requestRefund(d.ID)
	r := d.Details.V.Refund
	f.wantEqual("debit", r.DebitNet, money.Cents(10000))
	// A retried request (the API's transaction run again) posts nothing more.
	f.inTx(func(tx *sqlx.Tx) error { return activities.RequestRefund(f.ctx, tx, d, publicURL) })
	f.wantEqual("reserve posting", f.moves("refund:"+d.ID+":reserve"), map[string]money.Cents{
		domain.AvailableLedger(f.merchant.ID): -10000,
		domain.PendingLedger(f.merchant.ID):   10000,
	})
	// The reserve consumes the deposit's own locked money and the fee from
	// withdrawable money: no other money is freed or frozen.
	f.wantEqual("reserved", f.balance(f.merchant.ID), dbBalance(950, 10000))
	line := f.get(r.StatementID, domain.TypeRefund)
	f.wantEqual("line status", line.Status, domain.StatusPending)
	f.wantEqual("line amount", line.Amount, money.Cents(10000))

	proc := processormock.NewMockPix(gomock.NewController(t))
	proc.EXPECT().Refund(gomock.Any(), processor.RefundRequest{
		DepositID: d.ID, EndToEndID: *d.EndToEndID, RefundID: "dev-1", Amount: 10000, Nature: "ORIGINAL",
	}).Return(processor.Submission{ReferenceID: "ref-refund"}, nil).Times(1)
	a := &activities.Refunds{Base: f.base(), Processor: proc}
	for range 2 {
		if err := a.SubmitRefund(f.ctx, d.ID); err != nil {
			t.Fatal(err)
		}
	}
	f.wantEqual("refund status", f.get(d.ID, domain.TypePixIn).Details.V.Refund.Status, domain.StatusProcessing)
	f.wantEqual("line status", f.get(r.StatementID, domain.TypeRefund).Status, domain.StatusProcessing)

	n := processor.RefundNotice{Outcome: processor.OutcomeSettled, At: time.Now().UTC()}
	for range 2 {
		if err := a.CompleteRefund(f.ctx, activities.CompleteRefundInput{ID: d.ID, Notice: n}); err != nil {
			t.Fatal(err)
		}
	}
	got := f.get(d.ID, domain.TypePixIn)
	f.wantEqual("deposit status", got.Status, domain.StatusReversed)
	f.wantEqual("refund status", got.Details.V.Refund.Status, domain.StatusCompleted)
	// Kept in the deposit's JSON details: to the millisecond.
	if c := got.Details.V.Refund.CompletedAt; c == nil || c.Sub(n.At).Abs() >= time.Millisecond {
		t.Errorf("refund completedAt = %v, want %v", c, n.At)
	}
	f.wantEqual("line status", f.get(r.StatementID, domain.TypeRefund).Status, domain.StatusCompleted)
	f.wantEqual("postings", f.postings(r.StatementID), []string{"refund:" + d.ID + ":reserve", "refund:" + d.ID + ":settle"})
	// The payer gets the gross back; the platform absorbs the original fee.
	f.wantEqual("settle posting", f.moves("refund:"+d.ID+":settle"), map[string]money.Cents{
		domain.PendingLedger(f.merchant.ID): -10000,
		domain.LedgerFees:                   50,
		domain.LedgerPixClearing:            10000,
		domain.LedgerRefundCosts:            -50,
	})
	f.wantEqual("events", f.events(d.ID), []string{domain.EventPaymentCreated, domain.EventPaymentPaid,
		domain.EventRefundRequested, domain.EventRefundCompleted, domain.EventPaymentRefunded})
	f.wantEqual("balance", f.balance(f.merchant.ID), dbBalance(950, 0))

	// A late failure changes nothing.
	if err := a.FailRefund(f.ctx, activities.FailInput{ID: d.ID, Reason: "late"}); err != nil {
		t.Fatal(err)
	}
	f.wantEqual("postings after fail", len(f.postings(r.StatementID)), 2)
	f.wantEqual("deposit status after fail", f.get(d.ID, domain.TypePixIn).Status, domain.StatusReversed)
}

func TestFailRefundReturnsReserve(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 1000)
	d := f.settledCharge(10000)
	before := f.balance(f.merchant.ID)
	d = f.requestRefund(d.ID)

	a := &activities.Refunds{Base: f.base(), Processor: processormock.NewMockPix(gomock.NewController(t))}
	for range 2 {
		if err := a.FailRefund(f.ctx, activities.FailInput{ID: d.ID, Reason: "rejected"}); err != nil {
			t.Fatal(err)
		}
	}
	got := f.get(d.ID, domain.TypePixIn)
	f.wantEqual("deposit status", got.Status, domain.StatusCompleted)
	f.wantEqual("refund status", got.Details.V.Refund.Status, domain.StatusFailed)
	f.wantEqual("line status", f.get(d.Details.V.Refund.StatementID, domain.TypeRefund).Status, domain.StatusFailed)
	f.wantEqual("events", f.events(d.ID), []string{domain.EventPaymentCreated, domain.EventPaymentPaid,
		domain.EventRefundRequested, domain.EventRefundFailed})
	// Exactly what was there, the deposit's money locked again until its date.
	f.wantEqual("balance", f.balance(f.merchant.ID), before)
	// No submission after a failure (the mock expects no call).
	if err := a.SubmitRefund(f.ctx, d.ID); err != nil {
		t.Fatal(err)
	}
}
