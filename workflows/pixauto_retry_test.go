package workflows

import (
	"slices"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

// noticeAt sends the outcome of attempt n of cycle 0's instruction.
func noticeAt(env *testsuite.TestWorkflowEnvironment, attempt int, after time.Duration, outcome string) {
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(InstructionSignal, processor.InstructionNotice{InstructionID: activities.InstructionID("pa1", 0),
			Attempt: attempt, Outcome: outcome, EndToEndID: "E2", Reason: "insufficient funds"})
	}, after)
}

// oneCycle is a fixed monthly authorization whose only cycle is due on
// 2026-12-10 (its endDate the end of that month).
func oneCycle() pixauto.Authorization {
	end := pixauto.Date("2026-12-31")
	return pixauto.Authorization{Frequency: pixauto.Monthly, FixedAmount: ptrCents(4990), StartDate: "2026-12-10", EndDate: &end}
}

// A debit that fails on its due date is retried at the start of the next
// São Paulo day, on a durable timer, and that attempt pays: the
// instruction is PAID once, credited once, its two attempts on record.
func TestPixAutomaticFailedDebitRetriedNextDayPays(t *testing.T) {
	env, f := pixEnv(oneCycle())
	approve(env, time.Hour)
	noticeAt(env, 1, at("2026-12-10", "07:00"), processor.OutcomeFailed)
	noticeAt(env, 1, at("2026-12-10", "08:00"), processor.OutcomeFailed) // repeated: booked once
	noticeAt(env, 2, at("2026-12-11", "06:00"), processor.OutcomePaid)
	env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
	if got := result(t, env); got != pixauto.StatusExpired {
		t.Fatalf("status %s, want EXPIRED after the endDate", got)
	}
	id := activities.InstructionID("pa1", 0)
	if want := []string{"2026-12-10 00:00", "2026-12-11 00:00"}; !slices.Equal(f.sent[id], want) {
		t.Errorf("attempts sent at %v, want %v", f.sent[id], want)
	}
	d := f.instr[id].Details.V.PixAutomatic
	if f.status(id) != pixauto.InstructionPaid || f.credits != 4940 || len(d.Attempts) != 2 ||
		d.Attempts[0].Status != domain.AttemptFailed || d.Attempts[1].Status != domain.AttemptPaid || d.RetryDate != "" {
		t.Errorf("instruction %s credits %d attempts %+v", f.status(id), f.credits, d.Attempts)
	}
}

// Every attempt fails: three retries on the three days after the due
// date, then the instruction is FAILED with the last reason and nothing
// is credited; no fifth attempt is sent.
func TestPixAutomaticAllRetriesFail(t *testing.T) {
	env, f := pixEnv(oneCycle())
	approve(env, time.Hour)
	for n, day := range []string{"2026-12-10", "2026-12-11", "2026-12-12", "2026-12-13"} {
		noticeAt(env, n+1, at(day, "05:00"), processor.OutcomeFailed)
	}
	env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
	if got := result(t, env); got != pixauto.StatusExpired {
		t.Fatalf("status %s", got)
	}
	id := activities.InstructionID("pa1", 0)
	want := []string{"2026-12-10 00:00", "2026-12-11 00:00", "2026-12-12 00:00", "2026-12-13 00:00"}
	if !slices.Equal(f.sent[id], want) || pixauto.MaxRetries != len(want)-1 {
		t.Errorf("attempts sent at %v, want %v", f.sent[id], want)
	}
	d := f.instr[id].Details.V.PixAutomatic
	if f.status(id) != pixauto.InstructionFailed || f.credits != 0 || d.FailureReason != "insufficient funds" || d.RetryDate != "" {
		t.Errorf("instruction %s credits %d details %+v", f.status(id), f.credits, d)
	}
}

// The merchant cancels the instruction between a failed attempt and its
// retry: it is CANCELED and no further attempt is sent; a cancel while an
// attempt is in flight (the next cycle's, on its due date) is refused and
// that debit is booked.
func TestPixAutomaticCancelBetweenAttempts(t *testing.T) {
	env, f := pixEnv(pixauto.Authorization{Frequency: pixauto.Weekly, MaxAmount: ptrCents(10000), StartDate: "2026-11-26"})
	approve(env, time.Hour)
	var madeErr, madeErr2, cancelErr, inFlightErr error
	var made, made2, canceled domain.Transaction
	env.RegisterDelayedCallback(func() {
		pixUpdate(env, "pa1", PixAutoSchedule, &madeErr, &made, pixauto.Order{Cycle: 0, Amount: 1067, DueDate: "2026-11-30"})
	}, 2*time.Hour)
	noticeAt(env, 1, at("2026-11-30", "05:00"), processor.OutcomeFailed)
	env.RegisterDelayedCallback(func() {
		pixUpdate(env, "pa1", PixAutoCancelInstruction, &cancelErr, &canceled, activities.InstructionID("pa1", 0))
	}, at("2026-11-30", "12:00"))
	env.RegisterDelayedCallback(func() {
		pixUpdate(env, "pa1", PixAutoSchedule, &madeErr2, &made2, pixauto.Order{Cycle: 1, Amount: 2000, DueDate: "2026-12-03"})
	}, at("2026-11-30", "13:00"))
	env.RegisterDelayedCallback(func() {
		pixUpdate(env, "pa1", PixAutoCancelInstruction, &inFlightErr, nil, activities.InstructionID("pa1", 1))
	}, at("2026-12-03", "01:00"))
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(InstructionSignal, processor.InstructionNotice{InstructionID: activities.InstructionID("pa1", 1),
			Outcome: processor.OutcomePaid, EndToEndID: "E3"})
	}, at("2026-12-03", "02:00"))
	env.RegisterDelayedCallback(func() {
		var err error
		pixUpdate(env, "pa1", PixAutoCancel, &err, nil)
	}, at("2026-12-06", "00:00"))
	env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
	if got := result(t, env); got != pixauto.StatusCanceled {
		t.Fatalf("status %s", got)
	}
	first, second := activities.InstructionID("pa1", 0), activities.InstructionID("pa1", 1)
	if madeErr != nil || madeErr2 != nil || cancelErr != nil || canceled.Status != pixauto.InstructionCanceled {
		t.Fatalf("made %v / %v, cancel %+v %v", madeErr, madeErr2, canceled, cancelErr)
	}
	if want := []string{"2026-11-30 00:00"}; !slices.Equal(f.sent[first], want) || f.status(first) != pixauto.InstructionCanceled {
		t.Errorf("canceled instruction %s sent at %v, want only %v", f.status(first), f.sent[first], want)
	}
	if inFlightErr == nil || f.status(second) != pixauto.InstructionPaid || f.credits != money.Cents(2000-50) {
		t.Errorf("cancel in flight: %v; second %s credits %d", inFlightErr, f.status(second), f.credits)
	}
}

// A first debit sent late (the workflow resumes the morning after its
// due date, its worker down until then) is awaited a full grace period
// from its own day, not failed as soon as it is out: its payment that
// afternoon is booked.
func TestPixAutomaticLateSentDebitAwaitedFromItsOwnDay(t *testing.T) {
	env, f := pixEnv(oneCycle())
	id := runLateSentDebit(t, env, f)
	if f.status(id) != pixauto.InstructionPaid || f.credits != 4940 {
		t.Errorf("instruction %s credits %d, want PAID and 4940 credited", f.status(id), f.credits)
	}
}

// runLateSentDebit runs an attempt 1 sent the day after its due date
// (12-11 at 09:00 for 12-10) whose paid notice arrives that afternoon, to
// the authorization's end; it checks the debit was sent once, then, and
// returns the instruction's id for the test's own expectation.
func runLateSentDebit(t *testing.T, env *testsuite.TestWorkflowEnvironment, f *fakePix) string {
	t.Helper()
	env.SetStartTime(time.Date(2026, 12, 11, 9, 0, 0, 0, saoPaulo))
	f.a.Status = pixauto.StatusActive
	id := activities.InstructionID("pa1", 0)
	f.instr[id] = &domain.Transaction{ID: id, Type: domain.TypePixAutomatic, Status: pixauto.InstructionScheduled, Amount: 4990,
		FeeAmount: 50, NetAmount: 4940, Details: domain.SomeJSON(domain.Details{PixAutomatic: &domain.PixAutomaticDetails{
			AuthorizationID: "pa1", DueDate: "2026-12-10"}})}
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(InstructionSignal, processor.InstructionNotice{InstructionID: id, Attempt: 1, Outcome: processor.OutcomePaid, EndToEndID: "E2"})
	}, 3*time.Hour)
	env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a, NextCycle: 1,
		Open: []OpenInstruction{{ID: id, DueDate: "2026-12-10"}}, Continued: true})
	if got := result(t, env); got != pixauto.StatusExpired {
		t.Fatalf("status %s", got)
	}
	if sent := f.sent[id]; !slices.Equal(sent, []string{"2026-12-11 09:00"}) {
		t.Errorf("sent at %v, want once, on 12-11 at 09:00", sent)
	}
	return id
}
