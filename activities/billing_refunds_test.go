package activities_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	billingdom "github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
)

// paidBillingWithRefund stores a boleto billing of 100.00, pays it and
// books a PENDING refund of amount (as the refund use case does).
func (f *fixture) paidBillingWithRefund(a *activities.Billings, refundID string, amount money.Cents) billingdom.Billing {
	f.t.Helper()
	f.fund(f.merchant.ID, 100000)
	b := f.newBilling(domain.MethodBoleto, 10000)
	if _, err := a.PayBilling(f.ctx, activities.BillingPaidInput{BillingID: b.ID, Notice: processor.BillingNotice{Outcome: processor.OutcomePaid, At: time.Now()}}); err != nil {
		f.t.Fatal(err)
	}
	f.inTx(func(tx *sqlx.Tx) error {
		_, err := activities.RefundBilling(f.ctx, tx, b.ID, 0, activities.BillingRefundInput{RefundID: refundID, Amount: amount, At: time.Now()})
		return err
	})
	return f.billing(b.ID)
}

// TestRefusedBillingRefundIsCompensatedOnce: the processor refuses a
// booked refund; the activity fails it and returns exactly the booked
// money (the refund's posting and its compensation sum to nothing), the
// billing back to RECEIVED with nothing refunded. Run again (Temporal's
// retry), it finds the refund FAILED: no second call, no second posting.
func TestRefusedBillingRefundIsCompensatedOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockBillings(gomock.NewController(t))
	a := &activities.Billings{Base: f.base(), Processor: proc}
	refundID := "bref_" + domain.NewID("")
	b0 := f.newBilling(domain.MethodBoleto, 10000)
	if _, err := a.PayBilling(f.ctx, activities.BillingPaidInput{BillingID: b0.ID, Notice: processor.BillingNotice{Outcome: processor.OutcomePaid, At: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	paid := f.balance(f.merchant.ID)
	f.inTx(func(tx *sqlx.Tx) error {
		_, err := activities.RefundBilling(f.ctx, tx, b0.ID, 0, activities.BillingRefundInput{RefundID: refundID, Amount: 4000, At: time.Now()})
		return err
	})
	booked := f.billing(b0.ID)
	if r, _ := booked.Refund(refundID); r.Status != domain.StatusPending || booked.Status != billingdom.BillingPartiallyRefunded || booked.RefundedAmount != 4000 {
		t.Fatalf("booked refund: billing %s refunded %s, refund %+v", booked.Status, booked.RefundedAmount, r)
	}
	proc.EXPECT().RefundBilling(gomock.Any(), processor.BillingRefundRequest{BillingID: b0.ID, RefundID: refundID, Method: domain.MethodBoleto, Amount: 4000}).
		Return(processor.Submission{}, fmt.Errorf("%w: issuer says no", processor.ErrRefundRefused)).Times(1)
	for range 2 {
		s, err := a.SubmitBillingRefund(f.ctx, activities.BillingRefundRef{BillingID: b0.ID, RefundID: refundID})
		if err != nil || s != domain.StatusFailed {
			t.Fatalf("SubmitBillingRefund = %s, %v; want FAILED", s, err)
		}
	}
	got := f.billing(b0.ID)
	r, _ := got.Refund(refundID)
	if got.Status != billingdom.BillingReceived || got.RefundedAmount != 0 || r.Status != domain.StatusFailed || r.FailureReason == "" {
		t.Fatalf("after the refusal: billing %s refunded %s, refund %+v", got.Status, got.RefundedAmount, r)
	}
	refund, back := f.moves("billing:"+b0.ID+":refund:"+refundID), f.moves("billing:"+b0.ID+":refund:"+refundID+":failed")
	if len(refund) == 0 {
		t.Fatal("no refund posting")
	}
	for acct, v := range refund {
		if back[acct] != -v {
			t.Errorf("%s: refund %s, compensation %s: want its exact reverse", acct, v, back[acct])
		}
	}
	f.wantEqual("postings of the refund line", len(f.postings(activities.BillingRefundLineID(refundID))), 2)
	f.wantEqual("line status", f.get(activities.BillingRefundLineID(refundID), billingdom.TypeBillingRefund).Status, domain.StatusFailed)
	f.wantEqual("merchant balance after the compensation", f.balance(f.merchant.ID), paid)
}

// TestAcceptedBillingRefundIsAskedOnce: the processor accepts; the refund
// is COMPLETED and its line too, with the booking's one posting. A retry
// of the activity (after the answer was recorded) asks nothing and posts
// nothing.
func TestAcceptedBillingRefundIsAskedOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockBillings(gomock.NewController(t))
	a := &activities.Billings{Base: f.base(), Processor: proc}
	refundID := "bref_" + domain.NewID("")
	b := f.paidBillingWithRefund(a, refundID, 10000)
	proc.EXPECT().RefundBilling(gomock.Any(), gomock.Any()).Return(processor.Submission{ReferenceID: "ref"}, nil).Times(1)
	for range 2 {
		s, err := a.SubmitBillingRefund(f.ctx, activities.BillingRefundRef{BillingID: b.ID, RefundID: refundID})
		if err != nil || s != domain.StatusCompleted {
			t.Fatalf("SubmitBillingRefund = %s, %v; want COMPLETED", s, err)
		}
	}
	got := f.billing(b.ID)
	r, _ := got.Refund(refundID)
	if got.Status != billingdom.BillingRefunded || got.RefundedAmount != 10000 || r.Status != domain.StatusCompleted {
		t.Fatalf("after the acceptance: billing %s refunded %s, refund %+v", got.Status, got.RefundedAmount, r)
	}
	f.wantEqual("postings of the refund line", f.postings(activities.BillingRefundLineID(refundID)), []string{"billing:" + b.ID + ":refund:" + refundID})
	f.wantEqual("line status", f.get(activities.BillingRefundLineID(refundID), billingdom.TypeBillingRefund).Status, domain.StatusCompleted)
}

// TestBillingRefundTransientErrorIsRetried: an error that is not a refusal
// leaves the refund PENDING (nothing returned) and the activity failing,
// for Temporal to retry; the retry's acceptance completes it.
func TestBillingRefundTransientErrorIsRetried(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockBillings(gomock.NewController(t))
	a := &activities.Billings{Base: f.base(), Processor: proc}
	refundID := "bref_" + domain.NewID("")
	b := f.paidBillingWithRefund(a, refundID, 2500)
	gomock.InOrder(
		proc.EXPECT().RefundBilling(gomock.Any(), gomock.Any()).Return(processor.Submission{}, fmt.Errorf("acquirer timeout")),
		proc.EXPECT().RefundBilling(gomock.Any(), gomock.Any()).Return(processor.Submission{ReferenceID: "ref"}, nil),
	)
	if _, err := a.SubmitBillingRefund(f.ctx, activities.BillingRefundRef{BillingID: b.ID, RefundID: refundID}); err == nil {
		t.Fatal("a transient error must fail the activity (Temporal retries it)")
	}
	if r, _ := f.billing(b.ID).Refund(refundID); r.Status != domain.StatusPending {
		t.Fatalf("after a transient error the refund is %s, want PENDING", r.Status)
	}
	if s, err := a.SubmitBillingRefund(f.ctx, activities.BillingRefundRef{BillingID: b.ID, RefundID: refundID}); err != nil || s != domain.StatusCompleted {
		t.Fatalf("retry = %s, %v", s, err)
	}
	f.wantEqual("compensation postings", f.moves("billing:"+b.ID+":refund:"+refundID+":failed"), map[string]money.Cents{})
}

// TestRefundsAfterAFailedOneStillReverseThePaidPostingExactly: refunds of
// 33.33 (refused) then 33.33 and the rest leave every account as before
// the payment: the fee share of a refused refund is not counted again.
func TestRefundsAfterAFailedOneStillReverseThePaidPostingExactly(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockBillings(gomock.NewController(t))
	a := &activities.Billings{Base: f.base(), Processor: proc}
	// Refund ids are unique (derived): each statement line is its refund's.
	r1, r2, r3 := "r1-"+domain.NewID(""), "r2-"+domain.NewID(""), "r3-"+domain.NewID("")
	b := f.paidBillingWithRefund(a, r1, 3333)
	proc.EXPECT().RefundBilling(gomock.Any(), gomock.Any()).DoAndReturn(func(_ any, r processor.BillingRefundRequest) (processor.Submission, error) {
		if r.RefundID == r1 {
			return processor.Submission{}, processor.ErrRefundRefused
		}
		return processor.Submission{ReferenceID: "ref"}, nil
	}).Times(3)
	book := func(id string, amount money.Cents) {
		before := f.billing(b.ID).RefundedAmount
		f.inTx(func(tx *sqlx.Tx) error {
			_, err := activities.RefundBilling(f.ctx, tx, b.ID, before, activities.BillingRefundInput{RefundID: id, Amount: amount, At: time.Now()})
			return err
		})
	}
	book(r2, 3333) // booked while r1 is PENDING: its share counts r1's
	for _, id := range []string{r1, r2} {
		if _, err := a.SubmitBillingRefund(f.ctx, activities.BillingRefundRef{BillingID: b.ID, RefundID: id}); err != nil {
			t.Fatal(err)
		}
	}
	book(r3, 10000-3333)
	if s, err := a.SubmitBillingRefund(f.ctx, activities.BillingRefundRef{BillingID: b.ID, RefundID: r3}); err != nil || s != domain.StatusCompleted {
		t.Fatalf("r3 = %s, %v", s, err)
	}
	got := f.billing(b.ID)
	f.wantEqual("status", got.Status, billingdom.BillingRefunded)
	total := map[string]money.Cents{}
	for _, key := range []string{"paid", "refund:" + r1, "refund:" + r1 + ":failed", "refund:" + r2, "refund:" + r3} {
		for acct, v := range f.moves("billing:" + b.ID + ":" + key) {
			total[acct] += v
		}
	}
	for acct, v := range total {
		if v != 0 {
			t.Errorf("%s moved %s net after the full refunds", acct, v)
		}
	}
	if _, err := db.BillingByID(f.ctx, f.db, b.ID); err != nil {
		t.Fatal(err)
	}
}

// TestBillingRefundUnderAnotherRefundsIDBooksNothing: a refund whose id is
// another billing's refund's (its statement line exists) is an error, and
// nothing is booked: before, the line's insert said "not inserted", that
// was ignored, and the merchant was debited for a refund no workflow of its
// own would ever ask of the processor.
func TestBillingRefundUnderAnotherRefundsIDBooksNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Billings{Base: f.base(), Processor: processormock.NewMockBillings(gomock.NewController(t))}
	refundID := "bref_" + domain.NewID("")
	f.paidBillingWithRefund(a, refundID, 10000)
	b2 := f.newBilling(domain.MethodBoleto, 10000)
	if _, err := a.PayBilling(f.ctx, activities.BillingPaidInput{BillingID: b2.ID, Notice: processor.BillingNotice{Outcome: processor.OutcomePaid, At: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	before := f.balance(f.merchant.ID)
	err := db.InTx(f.ctx, sharedDB, func(tx *sqlx.Tx) error {
		_, err := activities.RefundBilling(f.ctx, tx, b2.ID, 0, activities.BillingRefundInput{RefundID: refundID, Amount: 10000, At: time.Now()})
		return err
	})
	if !errors.Is(err, domain.ErrKeyReused) {
		t.Fatalf("refund of billing %s under another billing's refund id: %v, want ErrKeyReused", b2.ID, err)
	}
	got := f.billing(b2.ID)
	if got.Status != billingdom.BillingReceived || got.RefundedAmount != 0 || len(got.Details.V.Refunds) != 0 {
		t.Fatalf("billing %s after the refused booking: %s refunded %s, refunds %v", b2.ID, got.Status, got.RefundedAmount, got.Details.V.Refunds)
	}
	f.wantEqual("merchant balance", f.balance(f.merchant.ID), before)
}
