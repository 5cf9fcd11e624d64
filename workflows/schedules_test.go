package workflows

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/money"
)

var saoPaulo, _ = time.LoadLocation("America/Sao_Paulo")

// fakeSchedules stands in for the schedule activities: runs are recorded at
// the test clock's time, the balance is whatever the test sets.
type fakeSchedules struct {
	env      *testsuite.TestWorkflowEnvironment
	mu       sync.Mutex
	runs     []time.Time
	numbers  []int
	saved    []schedule.Schedule
	balance  money.Cents
	runError error
	// saveError, when set, refuses a save (the activity's quota check).
	saveError func(schedule.Schedule) error
}

func (f *fakeSchedules) ensure(context.Context, schedule.Schedule) error { return nil }
func (f *fakeSchedules) save(_ context.Context, s schedule.Schedule) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.saveError != nil {
		if err := f.saveError(s); err != nil {
			return err
		}
	}
	f.saved = append(f.saved, s)
	return nil
}
func (f *fakeSchedules) run(_ context.Context, in activities.RunScheduleInput) (schedule.RunResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.runError != nil {
		return schedule.RunResult{}, f.runError
	}
	f.runs = append(f.runs, f.env.Now())
	f.numbers = append(f.numbers, in.RunNumber)
	return schedule.RunResult{RunNumber: in.RunNumber, TransactionID: "tx", Status: "PENDING"}, nil
}
func (f *fakeSchedules) readBalance(context.Context, string) (money.Cents, error) {
	return f.balance, nil
}
func (f *fakeSchedules) last() schedule.Schedule {
	return f.saved[len(f.saved)-1]
}

// scheduleEnv starts the test clock at start (São Paulo time).
func scheduleEnv(start time.Time) (*testsuite.TestWorkflowEnvironment, *fakeSchedules) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(start)
	f := &fakeSchedules{env: env}
	env.RegisterActivityWithOptions(f.ensure, activity.RegisterOptions{Name: actName(scheduleActs.EnsureSchedule)})
	env.RegisterActivityWithOptions(f.save, activity.RegisterOptions{Name: actName(scheduleActs.SaveSchedule)})
	env.RegisterActivityWithOptions(f.run, activity.RegisterOptions{Name: actName(scheduleActs.RunSchedule)})
	env.RegisterActivityWithOptions(f.readBalance, activity.RegisterOptions{Name: actName(scheduleActs.ScheduleBalance)})
	return env, f
}

func recurring(created time.Time, r schedule.Rule, maxRuns int) ScheduleInput {
	r.Timezone = "America/Sao_Paulo"
	return ScheduleInput{Schedule: schedule.Schedule{ID: "s1", AccountID: "a1", Trigger: schedule.Recurring, Rule: &r,
		MaxRuns: maxRuns, Status: schedule.StatusActive, CreatedAt: created,
		Payload: schedule.Payload{Method: schedule.MethodPix, Amount: 1000}}}
}

func localTimes(ts []time.Time) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.In(saoPaulo).Format("2006-01-02 15:04")
	}
	return out
}

func wantRuns(t *testing.T, f *fakeSchedules, want ...string) {
	t.Helper()
	got := localTimes(f.runs)
	if len(got) != len(want) {
		t.Fatalf("runs %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("runs %v, want %v", got, want)
		}
	}
}

// update sends an update to schedule s1, as service.Schedules does (its
// target last), and returns its result through the callbacks.
func update(env *testsuite.TestWorkflowEnvironment, name string, out *schedule.Record, errOut *error, args ...any) {
	updateTo(env, "s1", name, out, errOut, args...)
}

// updateTo sends an update naming schedule target.
func updateTo(env *testsuite.TestWorkflowEnvironment, target, name string, out *schedule.Record, errOut *error, args ...any) {
	args = append(args, ScheduleTarget{ScheduleID: target})
	env.UpdateWorkflow(name, name+time.Now().String(), &testsuite.TestUpdateCallback{
		OnReject: func(err error) { *errOut = err },
		OnComplete: func(v any, err error) {
			*errOut = err
			if rec, ok := v.(schedule.Record); ok && out != nil {
				*out = rec
			}
		},
	}, args...)
}

func TestScheduleDailyFiresAtLocalTimeThreeDays(t *testing.T) {
	start := time.Date(2026, 3, 10, 8, 0, 0, 0, saoPaulo)
	env, f := scheduleEnv(start)
	env.ExecuteWorkflow(ScheduleWorkflow, recurring(start, schedule.Rule{Interval: schedule.Daily, Time: "09:00"}, 3))
	if got := result(t, env); got != schedule.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	wantRuns(t, f, "2026-03-10 09:00", "2026-03-11 09:00", "2026-03-12 09:00")
	if last := f.last(); last.RunCount != 3 || last.NextRunAt != nil || last.LastRunAt == nil || f.numbers[2] != 3 {
		t.Fatalf("last saved %+v, numbers %v", last, f.numbers)
	}
}

func TestScheduleMonthlyDay31ThroughFebruary(t *testing.T) {
	start := time.Date(2026, 1, 15, 12, 0, 0, 0, saoPaulo)
	env, f := scheduleEnv(start)
	dom := 31
	env.ExecuteWorkflow(ScheduleWorkflow, recurring(start, schedule.Rule{Interval: schedule.Monthly, Time: "10:00", DayOfMonth: &dom}, 3))
	if got := result(t, env); got != schedule.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	wantRuns(t, f, "2026-01-31 10:00", "2026-02-28 10:00", "2026-03-31 10:00")
}

func TestSchedulePauseSkipsRuns(t *testing.T) {
	start := time.Date(2026, 3, 10, 8, 0, 0, 0, saoPaulo)
	env, f := scheduleEnv(start)
	paused, active := schedule.StatusPaused, schedule.StatusActive
	var rec schedule.Record
	var err error
	env.RegisterDelayedCallback(func() {
		update(env, ScheduleUpdate, &rec, &err, schedule.Patch{Status: &paused})
	}, 4*time.Hour) // 12:00 on the 10th, after the first run
	env.RegisterDelayedCallback(func() {
		if err != nil || rec.Status != paused || rec.NextRunAt != schedule.Dash {
			t.Errorf("pause: %v %+v", err, rec)
		}
		update(env, ScheduleUpdate, &rec, &err, schedule.Patch{Status: &active})
	}, 52*time.Hour) // 12:00 on the 12th
	env.ExecuteWorkflow(ScheduleWorkflow, recurring(start, schedule.Rule{Interval: schedule.Daily, Time: "09:00"}, 2))
	if got := result(t, env); got != schedule.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	wantRuns(t, f, "2026-03-10 09:00", "2026-03-13 09:00")
}

// A resume the save refuses (no active-schedule slot left) answers the
// refusal and leaves the schedule paused: it does not run.
func TestScheduleResumeRefusedStaysPaused(t *testing.T) {
	start := time.Date(2026, 3, 10, 8, 0, 0, 0, saoPaulo)
	env, f := scheduleEnv(start)
	paused, active := schedule.StatusPaused, schedule.StatusActive
	f.saveError = func(s schedule.Schedule) error {
		if len(f.saved) > 0 && f.saved[len(f.saved)-1].Status == paused && s.Status == active {
			return temporal.NewNonRetryableApplicationError("the account has 20 active scheduled transfers", activities.ErrTypeInvalid, nil)
		}
		return nil
	}
	var rec schedule.Record
	var pauseErr, resumeErr, cancelErr error
	env.RegisterDelayedCallback(func() {
		update(env, ScheduleUpdate, &rec, &pauseErr, schedule.Patch{Status: &paused})
	}, 4*time.Hour)
	env.RegisterDelayedCallback(func() {
		update(env, ScheduleUpdate, nil, &resumeErr, schedule.Patch{Status: &active})
	}, 28*time.Hour)
	env.RegisterDelayedCallback(func() {
		update(env, ScheduleCancel, &rec, &cancelErr)
	}, 76*time.Hour) // two more 09:00s have passed
	env.ExecuteWorkflow(ScheduleWorkflow, recurring(start, schedule.Rule{Interval: schedule.Daily, Time: "09:00"}, 0))
	if got := result(t, env); got != schedule.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	var app *temporal.ApplicationError
	if pauseErr != nil || !errors.As(resumeErr, &app) || app.Type() != activities.ErrTypeInvalid || cancelErr != nil {
		t.Fatalf("pause %v, resume %v, cancel %v", pauseErr, resumeErr, cancelErr)
	}
	wantRuns(t, f, "2026-03-10 09:00")
}

func TestScheduleClosedRejectsUpdates(t *testing.T) {
	start := time.Date(2026, 3, 10, 8, 0, 0, 0, saoPaulo)
	env, f := scheduleEnv(start)
	label := "novo"
	var rec schedule.Record
	var cancelErr, lateErr error
	env.RegisterDelayedCallback(func() {
		update(env, ScheduleCancel, &rec, &cancelErr)
		update(env, ScheduleUpdate, nil, &lateErr, schedule.Patch{Label: &label})
	}, time.Minute)
	env.ExecuteWorkflow(ScheduleWorkflow, recurring(start, schedule.Rule{Interval: schedule.Daily, Time: "09:00"}, 0))
	if got := result(t, env); got != schedule.StatusCompleted || len(f.runs) != 0 {
		t.Fatalf("status %s, runs %v", got, f.runs)
	}
	var app *temporal.ApplicationError
	if cancelErr != nil || rec.Status != schedule.StatusCompleted || !errors.As(lateErr, &app) || app.Type() != activities.ErrTypeInvalid {
		t.Fatalf("cancel %v %+v, late update %v", cancelErr, rec, lateErr)
	}
}

func TestScheduleThresholdFiresOncePerCrossing(t *testing.T) {
	start := time.Date(2026, 3, 10, 8, 0, 0, 0, saoPaulo)
	env, f := scheduleEnv(start)
	f.balance = 5000
	in := ScheduleInput{Schedule: schedule.Schedule{ID: "s1", AccountID: "a1", Trigger: schedule.BalanceThreshold,
		Threshold: 10000, Status: schedule.StatusActive, CreatedAt: start, Payload: schedule.Payload{Method: schedule.MethodPix, Amount: 1000}}}
	step := func(at time.Duration, bal money.Cents) {
		env.RegisterDelayedCallback(func() {
			f.mu.Lock()
			f.balance = bal
			f.mu.Unlock()
			env.SignalWorkflow(BalanceSignal, "a1")
		}, at)
	}
	step(1*time.Hour, 12000) // crosses: fires
	step(2*time.Hour, 15000) // still above: nothing
	step(3*time.Hour, 15000) // a change that stays above (a duplicate signal): nothing
	step(4*time.Hour, 8000)  // below: re-armed
	step(5*time.Hour, 10000) // reaches it again: fires
	var err error
	env.RegisterDelayedCallback(func() { update(env, ScheduleCancel, nil, &err) }, 6*time.Hour)
	env.ExecuteWorkflow(ScheduleWorkflow, in)
	if got := result(t, env); got != schedule.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	wantRuns(t, f, "2026-03-10 09:00", "2026-03-10 13:00")
	if f.numbers[1] != 2 || err != nil {
		t.Fatalf("numbers %v, cancel %v", f.numbers, err)
	}
}

func TestScheduleFailsAfterThreeFailedRuns(t *testing.T) {
	start := time.Date(2026, 3, 10, 8, 0, 0, 0, saoPaulo)
	env, f := scheduleEnv(start)
	f.runError = temporal.NewNonRetryableApplicationError("insufficient balance", activities.ErrTypeInsufficient, nil)
	env.ExecuteWorkflow(ScheduleWorkflow, recurring(start, schedule.Rule{Interval: schedule.Daily, Time: "09:00"}, 0))
	if got := result(t, env); got != schedule.StatusFailed {
		t.Fatalf("status %s", got)
	}
	if last := f.last(); last.Failures != 3 || last.RunCount != 0 || last.LastError != "insufficient balance" {
		t.Fatalf("last %+v", last)
	}
	if d := env.Now().Sub(start); d < 49*time.Hour || d > 50*time.Hour {
		t.Fatalf("failed after %v, want the third daily run", d)
	}
}

func TestScheduleRunNowAnswersWithTheRun(t *testing.T) {
	start := time.Date(2026, 3, 10, 8, 0, 0, 0, saoPaulo)
	env, f := scheduleEnv(start)
	var rec schedule.Record
	var err error
	env.RegisterDelayedCallback(func() { update(env, ScheduleRunNow, &rec, &err) }, time.Minute)
	env.ExecuteWorkflow(ScheduleWorkflow, recurring(start, schedule.Rule{Interval: schedule.Daily, Time: "09:00"}, 1))
	// maxRuns 1 was reached by run-now: the schedule closed before its 09:00 slot.
	if got := result(t, env); got != schedule.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	if err != nil || rec.Run == nil || rec.Run.RunNumber != 1 || rec.RunCount != 1 || rec.Status != schedule.StatusCompleted || rec.LastRunAt == nil {
		t.Fatalf("run-now: %v %+v", err, rec)
	}
	wantRuns(t, f, "2026-03-10 08:01")
}

func TestScheduleRunNowShortBalanceChangesNothing(t *testing.T) {
	start := time.Date(2026, 3, 10, 8, 0, 0, 0, saoPaulo)
	env, f := scheduleEnv(start)
	f.runError = temporal.NewNonRetryableApplicationError("insufficient balance: R$ 10,50 needed", activities.ErrTypeInsufficient, nil)
	var err error
	env.RegisterDelayedCallback(func() { update(env, ScheduleRunNow, nil, &err) }, time.Minute)
	env.RegisterDelayedCallback(func() { update(env, ScheduleCancel, nil, new(error)) }, 2*time.Minute)
	env.ExecuteWorkflow(ScheduleWorkflow, recurring(start, schedule.Rule{Interval: schedule.Daily, Time: "09:00"}, 0))
	result(t, env)
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != activities.ErrTypeInsufficient || app.Message() != "insufficient balance: R$ 10,50 needed" {
		t.Fatalf("run-now: %v", err)
	}
	if last := f.last(); last.RunCount != 0 || last.Failures != 0 {
		t.Fatalf("a refused run-now counted: %+v", last)
	}
}

func TestScheduleContinuesAsNew(t *testing.T) {
	start := time.Date(2026, 1, 1, 8, 0, 0, 0, saoPaulo)
	env, f := scheduleEnv(start)
	env.ExecuteWorkflow(ScheduleWorkflow, recurring(start, schedule.Rule{Interval: schedule.Daily, Time: "09:00"}, 0))
	var can *workflow.ContinueAsNewError
	if !env.IsWorkflowCompleted() || !errors.As(env.GetWorkflowError(), &can) {
		t.Fatalf("want continue-as-new, got %v", env.GetWorkflowError())
	}
	if len(f.runs) != ContinueAsNewAfterRuns || f.last().RunCount != ContinueAsNewAfterRuns {
		t.Fatalf("runs %d", len(f.runs))
	}
}
