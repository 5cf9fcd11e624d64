package activities_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
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

// activePixAuto is pixAuto's authorization, approved (its first payment
// credited), with cycle's instruction made due on due.
func (f *fixture) activePixAuto(proc *processormock.MockPixAutomatic, cycle int, due pixauto.Date) (*activities.PixAutomatic, pixauto.Authorization, domain.Transaction) {
	f.t.Helper()
	acts, a, _ := f.pixAuto(proc)
	if _, err := acts.ActivateAuthorization(f.ctx, activities.ActivateInput{AuthorizationID: a.ID,
		Notice: processor.AuthorizationNotice{Outcome: processor.OutcomeApproved, At: time.Now(), EndToEndID: "E1"}}); err != nil {
		f.t.Fatal(err)
	}
	in, err := acts.MakeInstruction(f.ctx, activities.MakeInstructionInput{AuthorizationID: a.ID,
		Order: pixauto.Order{Cycle: cycle, Amount: 4990, DueDate: due}})
	if err != nil {
		f.t.Fatal(err)
	}
	return acts, a, in
}

// A failed debit waits for its retry the day after its due date (no
// posting), a late run of the first attempt sends nothing, the retry is
// sent once (attempt 2), a stale notice of attempt 1 is not booked, and
// the retry's payment posts exactly once, each step run twice.
func TestPixAutomaticRetriedAttemptPostsOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockPixAutomatic(gomock.NewController(t))
	due := pixauto.Today(time.Now()).AddDays(7) // cycle 1 of a weekly recurrence started today
	acts, a, in := f.activePixAuto(proc, 1, due)
	ctx := f.ctx
	charge := func(attempt int) domain.Transaction {
		t.Helper()
		var got domain.Transaction
		for range 2 {
			var err error
			if got, err = acts.ChargeInstruction(ctx, activities.ChargeInput{InstructionID: in.ID, Attempt: attempt}); err != nil {
				t.Fatal(err)
			}
		}
		return got
	}
	settle := func(n processor.InstructionNotice) domain.Transaction {
		t.Helper()
		var got domain.Transaction
		for range 2 {
			var err error
			if got, err = acts.SettleInstruction(ctx, activities.SettleInstructionInput{InstructionID: in.ID, Notice: n}); err != nil {
				t.Fatal(err)
			}
		}
		return got
	}
	req := processor.DebitRequest{ID: in.ID, AuthorizationID: a.ID, RecurrenceID: "RR1", Amount: 4990, DueDate: string(due), Attempt: 1}
	proc.EXPECT().DebitInstruction(gomock.Any(), req).Return(processor.Submission{ReferenceID: "ref1"}, nil).Times(1)
	charge(1)
	failedAt := due.Start().Add(7 * time.Hour)
	failed := settle(processor.InstructionNotice{Attempt: 1, Outcome: processor.OutcomeFailed, Reason: "insufficient funds", At: failedAt})
	d := failed.Details.V.PixAutomatic
	if failed.Status != pixauto.InstructionScheduled || d.RetryDate != string(due.AddDays(1)) || d.SubmittedAt != nil ||
		len(d.Attempts) != 1 || d.Attempts[0].Status != domain.AttemptFailed || d.Attempts[0].ReferenceID != "ref1" {
		t.Fatalf("after the failed attempt: %s %+v", failed.Status, d)
	}
	f.wantEqual("postings of the failed attempt", f.postings(in.ID), []string{})
	charge(1) // a late run of attempt 1: nothing is sent again

	req.Attempt = 2
	proc.EXPECT().DebitInstruction(gomock.Any(), req).Return(processor.Submission{ReferenceID: "ref2"}, nil).Times(1)
	retried := charge(2)
	if d := retried.Details.V.PixAutomatic; d.RetryDate != "" || d.SubmittedAt == nil || len(d.Attempts) != 2 || *retried.ReferenceID != "ref2" {
		t.Fatalf("the retry: %+v", d)
	}
	if _, err := acts.CancelInstruction(ctx, activities.CancelInstructionInput{AuthorizationID: a.ID, InstructionID: in.ID}); err == nil {
		t.Error("an instruction with its retry in flight was canceled")
	}
	stale := settle(processor.InstructionNotice{Attempt: 1, Outcome: processor.OutcomePaid, EndToEndID: "E1", At: time.Now()})
	f.wantEqual("after a stale notice", stale.Status, pixauto.InstructionScheduled)
	before := f.balance(f.merchant.ID)
	paid := settle(processor.InstructionNotice{Attempt: 2, Outcome: processor.OutcomePaid, EndToEndID: "E2", At: time.Now()})
	f.wantEqual("paid", []any{paid.Status, paid.Details.V.PixAutomatic.Attempts[1].Status}, []any{pixauto.InstructionPaid, domain.AttemptPaid})
	f.wantEqual("paid moves", f.moves("pix-automatic:"+in.ID+":settle"),
		map[string]money.Cents{domain.LedgerPixClearing: -4990, domain.AvailableLedger(f.merchant.ID): 4940, domain.LedgerFees: 50})
	f.wantEqual("available after", f.balance(f.merchant.ID).Available, before.Available+4940)
	charge(3) // nothing left to send: the mock refuses a third call
}

// A canceled instruction keeps its cycle: canceled between a failed
// attempt and its retry, its retry is never sent, and no new instruction
// (the same one again included) is made for that cycle, by the workflow's
// step or by the API's create; the next cycle is free.
func TestPixAutomaticCanceledCycleStaysCanceled(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockPixAutomatic(gomock.NewController(t))
	today := pixauto.Today(time.Now())
	acts, a, in := f.activePixAuto(proc, 0, today.AddDays(3))
	ctx := f.ctx
	proc.EXPECT().DebitInstruction(gomock.Any(), gomock.Any()).Return(processor.Submission{ReferenceID: "ref1"}, nil).Times(1)
	if _, err := acts.ChargeInstruction(ctx, activities.ChargeInput{InstructionID: in.ID, Attempt: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := acts.SettleInstruction(ctx, activities.SettleInstructionInput{InstructionID: in.ID,
		Notice: processor.InstructionNotice{Attempt: 1, Outcome: processor.OutcomeFailed, Reason: "no funds", At: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	c, err := acts.CancelInstruction(ctx, activities.CancelInstructionInput{AuthorizationID: a.ID, InstructionID: in.ID})
	if err != nil || c.Status != pixauto.InstructionCanceled || c.Details.V.PixAutomatic.RetryDate != "" {
		t.Fatalf("cancel between attempts: %+v %v", c, err)
	}
	if got, err := acts.ChargeInstruction(ctx, activities.ChargeInput{InstructionID: in.ID, Attempt: 2}); err != nil || got.Status != pixauto.InstructionCanceled {
		t.Fatalf("the retry of a canceled instruction: %s %v", got.Status, err)
	}
	order := pixauto.Order{Cycle: 0, Amount: 4990, DueDate: today.AddDays(3)}
	if _, err := acts.MakeInstruction(ctx, activities.MakeInstructionInput{AuthorizationID: a.ID, Order: order}); err == nil ||
		!strings.Contains(err.Error(), "dueDate") || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("the canceled cycle made again: %v", err)
	}
	acct := f.merchant
	acct.Features.PixAutomatic = true
	uc := &service.PixAutomatic{DB: f.db}
	for _, day := range []pixauto.Date{today.AddDays(3), today.AddDays(4)} {
		if _, err := uc.CreateInstruction(ctx, acct, pixauto.NewInstruction{AuthorizationID: a.ID, Amount: 4990, DueDate: day}); err == nil ||
			!strings.Contains(err.Error(), "dueDate") {
			t.Errorf("create in the canceled cycle (%s): %v, want a 400 naming dueDate", day, err)
		}
	}
	next, err := acts.MakeInstruction(ctx, activities.MakeInstructionInput{AuthorizationID: a.ID,
		Order: pixauto.Order{Cycle: 1, Amount: 4990, DueDate: today.AddDays(7)}})
	if err != nil || next.Status != pixauto.InstructionScheduled {
		t.Fatalf("the next cycle: %+v %v", next, err)
	}
}

// A merchant's cancel racing the retry's debit (both started on one start
// line, several times) has exactly one winner, decided under the
// instruction's row lock: either the instruction is CANCELED and the
// retry is never sent, or the retry is in flight and the cancel refused.
func TestPixAutomaticCancelRacingRetryHasOneWinner(t *testing.T) {
	t.Parallel()
	proc := processormock.NewMockPixAutomatic(gomock.NewController(t))
	var sent atomic.Int32
	proc.EXPECT().DebitInstruction(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, r processor.DebitRequest) (processor.Submission, error) {
		if r.Attempt == 2 {
			sent.Add(1)
		}
		return processor.Submission{ReferenceID: "ref"}, nil
	}).AnyTimes()
	today := pixauto.Today(time.Now())
	wins := map[string]int{}
	for range 6 {
		f := newFixture(t) // one authorization per merchant, as pixAuto makes its customer
		acts, a, in := f.activePixAuto(proc, 0, today.AddDays(3))
		if _, err := acts.ChargeInstruction(f.ctx, activities.ChargeInput{InstructionID: in.ID, Attempt: 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := acts.SettleInstruction(f.ctx, activities.SettleInstructionInput{InstructionID: in.ID,
			Notice: processor.InstructionNotice{Attempt: 1, Outcome: processor.OutcomeFailed, Reason: "no funds", At: time.Now()}}); err != nil {
			t.Fatal(err)
		}
		before := sent.Load()
		start := make(chan struct{})
		var wg sync.WaitGroup
		var cancelErr, chargeErr error
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			_, cancelErr = acts.CancelInstruction(f.ctx, activities.CancelInstructionInput{AuthorizationID: a.ID, InstructionID: in.ID})
		}()
		go func() {
			defer wg.Done()
			<-start
			_, chargeErr = acts.ChargeInstruction(f.ctx, activities.ChargeInput{InstructionID: in.ID, Attempt: 2})
		}()
		close(start)
		wg.Wait()
		if chargeErr != nil {
			t.Fatal(chargeErr)
		}
		got := f.get(in.ID, domain.TypePixAutomatic)
		retried := sent.Load() - before
		switch d := got.Details.V.PixAutomatic; {
		case cancelErr == nil && got.Status == pixauto.InstructionCanceled && retried == 0 && len(d.Attempts) == 1:
			wins["cancel"]++
		case cancelErr != nil && got.Status == pixauto.InstructionScheduled && retried == 1 && d.InFlight() != nil && d.InFlight().Number == 2:
			wins["retry"]++
		default:
			t.Fatalf("no single winner: cancel %v, status %s, retries sent %d, attempts %+v", cancelErr, got.Status, retried, d.Attempts)
		}
	}
	t.Logf("winners over 6 races: %v", wins)
}
