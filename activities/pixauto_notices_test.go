package activities_test

import (
	"context"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
	"github.com/jangada/jangada/service"
)

// Which debit a notice is booked against: a notice naming no attempt is
// attempt 1's only, so once the retry is out a redelivered failure of
// attempt 1 is not booked as the retry failing, nor a payment naming no
// attempt as the retry's (which would send a third debit); a notice
// carrying another reference than the attempt's is not booked either.
func TestPixAutomaticUnnamedNoticeIsAttemptOnes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockPixAutomatic(gomock.NewController(t))
	acts, _, in := f.activePixAuto(proc, 0, pixauto.Today(time.Now()).AddDays(3))
	proc.EXPECT().DebitInstruction(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, r processor.DebitRequest) (processor.Submission, error) {
		return processor.Submission{ReferenceID: []string{"", "ref1", "ref2"}[r.Attempt]}, nil
	}).Times(2)
	settle := func(n processor.InstructionNotice) domain.Transaction {
		t.Helper()
		got, err := acts.SettleInstruction(f.ctx, activities.SettleInstructionInput{InstructionID: in.ID, Notice: n})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if _, err := acts.ChargeInstruction(f.ctx, activities.ChargeInput{InstructionID: in.ID, Attempt: 1}); err != nil {
		t.Fatal(err)
	}
	settle(processor.InstructionNotice{Outcome: processor.OutcomeFailed, Reason: "no funds", At: time.Now()}) // attempt 1's
	if _, err := acts.ChargeInstruction(f.ctx, activities.ChargeInput{InstructionID: in.ID, Attempt: 2}); err != nil {
		t.Fatal(err)
	}
	inbox := &service.Inbox{DB: f.db}
	for _, n := range []processor.InstructionNotice{
		{Outcome: processor.OutcomeFailed, Reason: "no funds", At: time.Now()},                              // attempt 1's, redelivered
		{Outcome: processor.OutcomePaid, EndToEndID: "E2", At: time.Now()},                                  // names no attempt
		{Attempt: 2, ReferenceID: "ref1", Outcome: processor.OutcomePaid, EndToEndID: "E2", At: time.Now()}, // another debit's reference
	} {
		if err := inbox.InstructionNotice(f.ctx, in.ID, n); err == nil {
			t.Errorf("the Inbox took %+v for attempt 2", n)
		}
		got := settle(n)
		if d := got.Details.V.PixAutomatic; got.Status != pixauto.InstructionScheduled || d.InFlight() == nil || d.InFlight().Number != 2 {
			t.Fatalf("%+v booked against attempt 2: %s %+v", n, got.Status, d.Attempts)
		}
	}
	f.wantEqual("postings before the retry's outcome", f.postings(in.ID), []string{})
	paid := settle(processor.InstructionNotice{Attempt: 2, ReferenceID: "ref2", Outcome: processor.OutcomePaid, EndToEndID: "E2", At: time.Now()})
	f.wantEqual("the retry paid", []any{paid.Status, paid.Details.V.PixAutomatic.Attempts[1].Status}, []any{pixauto.InstructionPaid, domain.AttemptPaid})
}

// A debit left unanswered fails the instruction for good, its attempt
// marked unanswered; its payment reported afterwards (the payer was
// debited) is booked by the Inbox as a late payment, PAID and credited
// once under the instruction's settle key, however often it is repeated
// (or its step run again);
// a payment naming another attempt is refused.
func TestPixAutomaticUnansweredDebitPaidLate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockPixAutomatic(gomock.NewController(t))
	acts, _, in := f.activePixAuto(proc, 0, pixauto.Today(time.Now()).AddDays(3))
	proc.EXPECT().DebitInstruction(gomock.Any(), gomock.Any()).Return(processor.Submission{ReferenceID: "ref1"}, nil).Times(1)
	if _, err := acts.ChargeInstruction(f.ctx, activities.ChargeInput{InstructionID: in.ID, Attempt: 1}); err != nil {
		t.Fatal(err)
	}
	failed, err := acts.SettleInstruction(f.ctx, activities.SettleInstructionInput{InstructionID: in.ID, NoRetry: true,
		Notice: processor.InstructionNotice{Attempt: 1, Outcome: processor.OutcomeFailed, Reason: "unanswered", At: time.Now()}})
	if d := failed.Details.V.PixAutomatic; err != nil || failed.Status != pixauto.InstructionFailed || d.Unanswered() == nil {
		t.Fatalf("the unanswered debit: %s %+v %v", failed.Status, d, err)
	}
	inbox := &service.Inbox{DB: f.db}
	if err := inbox.InstructionNotice(f.ctx, in.ID, processor.InstructionNotice{Attempt: 2, Outcome: processor.OutcomePaid, At: time.Now()}); err == nil {
		t.Error("a payment of an attempt never sent was taken")
	}
	before := f.balance(f.merchant.ID)
	late := processor.InstructionNotice{Attempt: 1, ReferenceID: "ref1", Outcome: processor.OutcomePaid, EndToEndID: "E7", At: time.Now()}
	if err := inbox.InstructionNotice(f.ctx, in.ID, late); err != nil {
		t.Fatal(err)
	}
	_ = inbox.InstructionNotice(f.ctx, in.ID, late) // redelivered: refused or not, never booked again
	if _, err := acts.SettleInstruction(f.ctx, activities.SettleInstructionInput{InstructionID: in.ID, Notice: late}); err != nil {
		t.Fatal(err) // the step run again
	}
	got := f.get(in.ID, domain.TypePixAutomatic)
	d := got.Details.V.PixAutomatic
	f.wantEqual("late payment", []any{got.Status, d.LatePayment, d.Attempts[0].Status, d.FailureReason},
		[]any{pixauto.InstructionPaid, true, domain.AttemptPaid, ""})
	f.wantEqual("late payment moves", f.moves("pix-automatic:"+in.ID+":settle"),
		map[string]money.Cents{domain.LedgerPixClearing: -4990, domain.AvailableLedger(f.merchant.ID): 4940, domain.LedgerFees: 50})
	f.wantEqual("postings", f.postings(in.ID), []string{"pix-automatic:" + in.ID + ":settle"})
	f.wantEqual("available after", f.balance(f.merchant.ID).Available, before.Available+4940)
}

// An instruction sent before attempts were kept (its reference on the
// record, no attempts list) is not sent again: its attempt 1 is the one
// in flight, and its outcome is booked.
func TestPixAutomaticLegacyInFlightNotSentAgain(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockPixAutomatic(gomock.NewController(t)) // any debit fails the test
	acts, _, in := f.activePixAuto(proc, 0, pixauto.Today(time.Now()).AddDays(3))
	details := in.Details.V
	d := *details.PixAutomatic
	d.SubmittedAt, details.PixAutomatic = domain.TimePtr(time.Now()), &d
	if _, err := f.db.ExecContext(f.ctx, `UPDATE transactions SET details = $2, reference_id = 'legacy-ref' WHERE id = $1`,
		in.ID, domain.SomeJSON(details)); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := acts.ChargeInstruction(f.ctx, activities.ChargeInput{InstructionID: in.ID, Attempt: 1}); err != nil {
			t.Fatal(err)
		}
	}
	paid, err := acts.SettleInstruction(f.ctx, activities.SettleInstructionInput{InstructionID: in.ID,
		Notice: processor.InstructionNotice{Outcome: processor.OutcomePaid, EndToEndID: "E8", At: time.Now()}})
	if err != nil || paid.Status != pixauto.InstructionPaid {
		t.Fatalf("the legacy debit's payment: %s %v", paid.Status, err)
	}
}
