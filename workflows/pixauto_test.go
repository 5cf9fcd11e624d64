package workflows

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

var pixActs *activities.PixAutomatic

// fakePix stands in for the PIX automatic activities: the authorization
// and its instructions in memory, every step stamped with the test clock,
// the domain's own rule (Admit) deciding what may be made.
type fakePix struct {
	env     *testsuite.TestWorkflowEnvironment
	mu      sync.Mutex
	a       pixauto.Authorization
	instr   map[string]*domain.Transaction
	made    map[int]time.Time    // cycle → when made
	charged map[string]time.Time // first attempt sent
	sent    map[string][]string  // every attempt sent, São Paulo time
	credits money.Cents          // net credited to the merchant
}

func (f *fakePix) activate(_ context.Context, in activities.ActivateInput) (pixauto.Authorization, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.a.Status == pixauto.StatusPending || activities.LateFirstPayment(f.a, in.Notice) {
		if !f.a.Closed() {
			f.a.Status, f.a.Payer = pixauto.StatusActive, in.Notice.Payer
		}
		if f.a.FirstPaymentAmount > 0 {
			f.credits += f.a.FirstPaymentAmount - f.a.FirstPaymentFee
			f.a.FirstPaymentID = activities.InstructionID(f.a.ID, -1)
		}
	}
	return f.a, nil
}

func (f *fakePix) close(_ context.Context, in activities.CloseInput) (pixauto.Authorization, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.a.Closed() {
		now := f.env.Now().UTC()
		f.a.Status, f.a.StatusReason, f.a.ClosedAt = in.Status, in.Reason, &now
		for _, t := range f.instr {
			if t.Status == pixauto.InstructionScheduled && t.Details.V.PixAutomatic.SubmittedAt == nil {
				t.Status = pixauto.InstructionCanceled
			}
		}
	}
	return f.a, nil
}

func (f *fakePix) make(_ context.Context, in activities.MakeInstructionInput) (domain.Transaction, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := activities.InstructionID(f.a.ID, in.Order.Cycle)
	if t, ok := f.instr[id]; ok {
		return *t, nil
	}
	if _, err := f.a.Admit(in.Order.Amount, in.Order.DueDate, f.env.Now()); err != nil {
		return domain.Transaction{}, activities.BusinessError(err)
	}
	t := &domain.Transaction{ID: id, Type: domain.TypePixAutomatic, Status: pixauto.InstructionScheduled, Amount: in.Order.Amount,
		FeeAmount: 50, NetAmount: in.Order.Amount - 50, Details: domain.SomeJSON(domain.Details{PixAutomatic: &domain.PixAutomaticDetails{
			AuthorizationID: f.a.ID, Cycle: in.Order.Cycle, DueDate: string(in.Order.DueDate)}})}
	f.instr[id] = t
	f.made[in.Order.Cycle] = f.env.Now()
	return *t, nil
}

func (f *fakePix) charge(_ context.Context, in activities.ChargeInput) (domain.Transaction, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.instr[in.InstructionID]
	d := t.Details.V.PixAutomatic
	if t.Status == pixauto.InstructionScheduled && d.InFlight() == nil && len(d.Attempts) == in.Attempt-1 {
		now := domain.TimePtr(f.env.Now())
		d.SubmittedAt, d.RetryDate = now, ""
		d.Attempts = append(d.Attempts, domain.PixAutomaticAttempt{Number: in.Attempt, Date: string(pixauto.Today(f.env.Now())),
			SubmittedAt: now, Status: domain.AttemptPending})
		if f.charged[t.ID].IsZero() {
			f.charged[t.ID] = f.env.Now()
		}
		f.sent[t.ID] = append(f.sent[t.ID], localTime(f.env.Now()))
	}
	return *t, nil
}

// settle books the attempt in flight with the domain's own retry rule.
func (f *fakePix) settle(_ context.Context, in activities.SettleInstructionInput) (domain.Transaction, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.instr[in.InstructionID]
	d := t.Details.V.PixAutomatic
	cur := d.InFlight()
	if t.Status != pixauto.InstructionScheduled || cur == nil || !cur.Named(in.Notice.Attempt, in.Notice.ReferenceID) {
		return *t, nil
	}
	d.SubmittedAt = nil
	if in.Notice.Outcome == processor.OutcomePaid {
		t.Status, cur.Status = pixauto.InstructionPaid, domain.AttemptPaid
		f.credits += t.NetAmount
		return *t, nil
	}
	cur.Status, d.FailureReason = domain.AttemptFailed, in.Notice.Reason
	if next, ok := f.a.RetryDate(d.Cycle, pixauto.Date(d.DueDate), len(d.Attempts), f.env.Now()); ok && !in.NoRetry && !f.a.Closed() {
		d.RetryDate = string(next)
	} else {
		t.Status = pixauto.InstructionFailed
	}
	return *t, nil
}

func (f *fakePix) cancelInstruction(_ context.Context, in activities.CancelInstructionInput) (domain.Transaction, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := in.InstructionID
	t, ok := f.instr[id]
	if !ok || in.AuthorizationID != f.a.ID {
		return domain.Transaction{}, activities.BusinessError(domain.NotFound("payment instruction"))
	}
	if t.Details.V.PixAutomatic.SubmittedAt != nil {
		return *t, activities.BusinessError(domain.Invalidf("payment instruction %s is being debited", id))
	}
	if t.Status == pixauto.InstructionScheduled {
		t.Status, t.Details.V.PixAutomatic.RetryDate = pixauto.InstructionCanceled, ""
	}
	return *t, nil
}

func (f *fakePix) status(id string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if t, ok := f.instr[id]; ok {
		return t.Status
	}
	return ""
}

// pixEnv starts the test clock at 2026-11-25 10:00 in São Paulo with the
// authorization a (PENDING, consent open for ConsentTTL).
func pixEnv(a pixauto.Authorization) (*testsuite.TestWorkflowEnvironment, *fakePix) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	start := time.Date(2026, 11, 25, 10, 0, 0, 0, saoPaulo)
	env.SetStartTime(start)
	a.ID, a.AccountID, a.Status, a.ConsentExpiresAt = "pa1", "acc1", pixauto.StatusPending, start.Add(pixauto.ConsentTTL).UTC()
	f := &fakePix{env: env, a: a, instr: map[string]*domain.Transaction{}, made: map[int]time.Time{}, charged: map[string]time.Time{},
		sent: map[string][]string{}}
	for name, fn := range map[string]any{
		actName(pixActs.ActivateAuthorization): f.activate, actName(pixActs.CloseAuthorization): f.close,
		actName(pixActs.MakeInstruction): f.make, actName(pixActs.ChargeInstruction): f.charge,
		actName(pixActs.SettleInstruction): f.settle, actName(pixActs.CancelInstruction): f.cancelInstruction,
	} {
		env.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: name})
	}
	return env, f
}

// at is the delay from the test's start to day d at hh:mm in São Paulo.
func at(d string, hhmm string) time.Duration {
	t, _ := time.ParseInLocation("2006-01-02 15:04", d+" "+hhmm, saoPaulo)
	return t.Sub(time.Date(2026, 11, 25, 10, 0, 0, 0, saoPaulo))
}

func approve(env *testsuite.TestWorkflowEnvironment, after time.Duration) {
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(AuthorizationSignal, processor.AuthorizationNotice{AuthorizationID: "pa1", Outcome: processor.OutcomeApproved,
			Payer: &domain.Party{Name: "Maria"}, EndToEndID: "E1", At: env.Now()})
	}, after)
}

// payAt sends the paid notice of cycle n's instruction.
func payAt(env *testsuite.TestWorkflowEnvironment, n int, after time.Duration, outcome string) {
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(InstructionSignal, processor.InstructionNotice{InstructionID: activities.InstructionID("pa1", n),
			Outcome: outcome, EndToEndID: "E2", At: env.Now(), Reason: "no funds"})
	}, after)
}

func pixUpdate(env *testsuite.TestWorkflowEnvironment, target, name string, errOut *error, out any, args ...any) {
	args = append(args, PixAutoTarget{AuthorizationID: target})
	env.UpdateWorkflow(name, name+time.Now().String(), &testsuite.TestUpdateCallback{
		OnReject: func(err error) { *errOut = err },
		OnComplete: func(v any, err error) {
			*errOut = err
			switch o := out.(type) {
			case *domain.Transaction:
				if t, ok := v.(domain.Transaction); ok {
					*o = t
				}
			case *pixauto.Authorization:
				if a, ok := v.(pixauto.Authorization); ok {
					*o = a
				}
			}
		},
	}, args...)
}

func localTime(t time.Time) string { return t.In(saoPaulo).Format("2006-01-02 15:04") }

// A fixed monthly authorization: the consent pays the first payment; each
// cycle's instruction is made 10 days before its due date and charged at
// the start of its due date (São Paulo), across three due dates; after
// the endDate the authorization expires and the workflow ends.
func TestPixAutomaticFixedAcrossDueDatesUntilEndDate(t *testing.T) {
	end := pixauto.Date("2027-02-10")
	env, f := pixEnv(pixauto.Authorization{Frequency: pixauto.Monthly, FixedAmount: ptrCents(4990), StartDate: "2026-12-10",
		EndDate: &end, FirstPaymentAmount: 1000, FirstPaymentFee: 50})
	approve(env, time.Hour)
	for n, due := range []string{"2026-12-10", "2027-01-10", "2027-02-10"} {
		payAt(env, n, at(due, "01:00"), processor.OutcomePaid)
	}
	env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
	if got := result(t, env); got != pixauto.StatusExpired {
		t.Fatalf("status %s, want EXPIRED", got)
	}
	for n, want := range []string{"2026-11-30 00:00", "2026-12-31 00:00", "2027-01-31 00:00"} {
		if got := localTime(f.made[n]); got != want {
			t.Errorf("cycle %d made at %s, want %s (10 days before its due date)", n, got, want)
		}
	}
	for n, want := range []string{"2026-12-10 00:00", "2027-01-10 00:00", "2027-02-10 00:00"} {
		id := activities.InstructionID("pa1", n)
		if got := localTime(f.charged[id]); got != want || f.status(id) != pixauto.InstructionPaid {
			t.Errorf("cycle %d charged at %s (%s), want %s and PAID", n, got, f.status(id), want)
		}
	}
	if len(f.made) != 3 {
		t.Errorf("made %d instructions, want 3 (none after the endDate)", len(f.made))
	}
	if want := money.Cents(950 + 3*4940); f.credits != want {
		t.Errorf("credited %d, want %d (first payment and three cycles, net)", f.credits, want)
	}
	if f.a.StatusReason != "the authorization's endDate has passed" {
		t.Errorf("reason %q", f.a.StatusReason)
	}
}

// Cancel between instructions: cycle 0 is paid, cycle 1 is made but not
// yet due when the merchant cancels; it is canceled with the authorization
// and never charged, and the workflow ends.
func TestPixAutomaticCancelBetweenInstructions(t *testing.T) {
	env, f := pixEnv(pixauto.Authorization{Frequency: pixauto.Weekly, FixedAmount: ptrCents(2000), StartDate: "2026-12-02"})
	approve(env, time.Hour)
	payAt(env, 0, at("2026-12-02", "02:00"), processor.OutcomePaid)
	var cancelErr error
	var got pixauto.Authorization
	env.RegisterDelayedCallback(func() {
		pixUpdate(env, "pa1", PixAutoCancel, &cancelErr, &got)
	}, at("2026-12-05", "12:00")) // cycle 1 (due 12-09) was made on 11-29... 10 days before
	env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
	if status := result(t, env); status != pixauto.StatusCanceled {
		t.Fatalf("status %s, want CANCELED", status)
	}
	if cancelErr != nil || got.Status != pixauto.StatusCanceled {
		t.Fatalf("cancel answered %+v, %v", got, cancelErr)
	}
	first, second := activities.InstructionID("pa1", 0), activities.InstructionID("pa1", 1)
	if f.status(first) != pixauto.InstructionPaid || f.status(second) != pixauto.InstructionCanceled {
		t.Errorf("cycle 0 %s, cycle 1 %s: want PAID, CANCELED", f.status(first), f.status(second))
	}
	if !f.charged[second].IsZero() || len(f.charged) != 1 {
		t.Errorf("charged %v: only cycle 0 may be", f.charged)
	}
}

// A long-lived authorization continues as new, carrying its next cycle and
// the instructions still open, so its history stays bounded.
func TestPixAutomaticContinuesAsNew(t *testing.T) {
	env, f := pixEnv(pixauto.Authorization{Frequency: pixauto.Weekly, FixedAmount: ptrCents(700), StartDate: "2026-12-01"})
	approve(env, time.Hour)
	env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("workflow ended with %v, want continue-as-new", err)
	}
	var next AuthorizationInput
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	if !next.Continued || next.NextCycle != len(f.made) || next.Authorization.Status != pixauto.StatusActive || next.NextCycle < 60 {
		t.Fatalf("continued with cycle %d (made %d), status %s", next.NextCycle, len(f.made), next.Authorization.Status)
	}
}

// A variable authorization: the merchant's instructions arrive as updates;
// one above maxAmount or outside the 2–10 day window is refused naming its
// field, one is canceled before its due date (never charged), one fails at
// the payer's bank (first charged on 12-03; its retry the next day goes
// unanswered and fails it for good); an update naming another
// authorization is rejected.
func TestPixAutomaticMerchantInstructions(t *testing.T) {
	env, f := pixEnv(pixauto.Authorization{Frequency: pixauto.Weekly, MaxAmount: ptrCents(10000), StartDate: "2026-11-26"})
	approve(env, time.Hour)
	var okErr, overErr, windowErr, wrongErr, cancelErr, secondErr error
	var made, canceled, second domain.Transaction
	env.RegisterDelayedCallback(func() {
		pixUpdate(env, "pa1", PixAutoSchedule, &okErr, &made, pixauto.Order{Cycle: 0, Amount: 9000, DueDate: "2026-11-30"})
		pixUpdate(env, "pa1", PixAutoSchedule, &overErr, nil, pixauto.Order{Cycle: 1, Amount: 10001, DueDate: "2026-12-03"})
		pixUpdate(env, "pa1", PixAutoSchedule, &windowErr, nil, pixauto.Order{Cycle: 2, Amount: 100, DueDate: "2026-12-10"})
		pixUpdate(env, "other", PixAutoSchedule, &wrongErr, nil, pixauto.Order{Cycle: 1, Amount: 100, DueDate: "2026-12-03"})
		pixUpdate(env, "pa1", PixAutoSchedule, &secondErr, &second, pixauto.Order{Cycle: 1, Amount: 1066, DueDate: "2026-12-03"})
	}, 2*time.Hour)
	env.RegisterDelayedCallback(func() {
		pixUpdate(env, "pa1", PixAutoCancelInstruction, &cancelErr, &canceled, activities.InstructionID("pa1", 0))
	}, at("2026-11-29", "12:00"))
	payAt(env, 1, at("2026-12-03", "00:30"), processor.OutcomeFailed)
	env.RegisterDelayedCallback(func() {
		var err error
		pixUpdate(env, "pa1", PixAutoCancel, &err, nil)
	}, at("2026-12-05", "00:00"))
	env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
	if status := result(t, env); status != pixauto.StatusCanceled {
		t.Fatalf("status %s", status)
	}
	if okErr != nil || made.Status != pixauto.InstructionScheduled || secondErr != nil {
		t.Fatalf("instructions: %+v %v / %v", made, okErr, secondErr)
	}
	for name, c := range map[string]struct {
		err   error
		field string
	}{"over maxAmount": {overErr, "amount"}, "11 days ahead": {windowErr, "dueDate"}, "another authorization": {wrongErr, "the update names"}} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.field) {
			t.Errorf("%s: err %v, want one naming %s", name, c.err, c.field)
		}
	}
	if cancelErr != nil || canceled.Status != pixauto.InstructionCanceled || !f.charged[made.ID].IsZero() {
		t.Errorf("cancel: %+v %v, charged %v", canceled, cancelErr, f.charged)
	}
	if f.status(second.ID) != pixauto.InstructionFailed || !slices.Equal(f.sent[second.ID], []string{"2026-12-03 00:00", "2026-12-04 00:00"}) || f.credits != 0 {
		t.Errorf("second %s sent %v credits %d: want FAILED, sent at the start of 12-03 and retried on 12-04, nothing credited",
			f.status(second.ID), f.sent[second.ID], f.credits)
	}
}

// An instruction sent to the payer's bank whose outcome never comes fails
// a day after its due date started; the consent unanswered expires; a
// rejected consent closes as REJECTED.
func TestPixAutomaticTimeouts(t *testing.T) {
	t.Run("unanswered debit", func(t *testing.T) {
		end := pixauto.Date("2026-12-10")
		env, f := pixEnv(pixauto.Authorization{Frequency: pixauto.Monthly, FixedAmount: ptrCents(500), StartDate: "2026-12-01", EndDate: &end})
		approve(env, time.Hour)
		env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
		if status := result(t, env); status != pixauto.StatusExpired {
			t.Fatalf("status %s", status)
		}
		id := activities.InstructionID("pa1", 0)
		if f.status(id) != pixauto.InstructionFailed || f.instr[id].Details.V.PixAutomatic.FailureReason == "" {
			t.Errorf("instruction %s %+v, want FAILED with a reason", f.status(id), f.instr[id].Details.V.PixAutomatic)
		}
	})
	t.Run("consent expires", func(t *testing.T) {
		env, f := pixEnv(pixauto.Authorization{Frequency: pixauto.Monthly, FixedAmount: ptrCents(500), StartDate: "2026-12-01"})
		env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
		if status := result(t, env); status != pixauto.StatusExpired || len(f.made) != 0 {
			t.Fatalf("status %s made %v", status, f.made)
		}
		if got := env.Now().Sub(time.Date(2026, 11, 25, 10, 0, 0, 0, saoPaulo)); got != pixauto.ConsentTTL+ConsentGrace {
			t.Errorf("expired after %v, want %v", got, pixauto.ConsentTTL+ConsentGrace)
		}
	})
	t.Run("rejected", func(t *testing.T) {
		env, f := pixEnv(pixauto.Authorization{Frequency: pixauto.Monthly, FixedAmount: ptrCents(500), StartDate: "2026-12-01"})
		env.RegisterDelayedCallback(func() {
			env.SignalWorkflow(AuthorizationSignal, processor.AuthorizationNotice{AuthorizationID: "other", Outcome: processor.OutcomeApproved})
			env.SignalWorkflow(AuthorizationSignal, processor.AuthorizationNotice{AuthorizationID: "pa1", Outcome: processor.OutcomeRejected, Reason: "no"})
		}, time.Hour)
		env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a})
		if status := result(t, env); status != pixauto.StatusRejected || f.credits != 0 {
			t.Fatalf("status %s credits %d", status, f.credits)
		}
	})
}

func ptrCents(c money.Cents) *money.Cents { return &c }
