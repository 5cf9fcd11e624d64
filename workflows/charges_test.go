package workflows

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// fakeCharges records which transition activities ran and how often.
type fakeCharges struct {
	calls map[string]int
	// onExpire runs a test's action while the expire step runs.
	onExpire func()
}

func (f *fakeCharges) ensure(context.Context, domain.Transaction) error {
	f.calls["ensure"]++
	return nil
}
func (f *fakeCharges) settle(_ context.Context, in activities.SettleChargeInput) (string, error) {
	f.calls["settle"]++
	return domain.StatusCompleted, nil
}
func (f *fakeCharges) fail(context.Context, string) (string, error) {
	f.calls["fail"]++
	return domain.StatusFailed, nil
}
func (f *fakeCharges) expire(context.Context, string) (string, error) {
	f.calls["expire"]++
	if f.onExpire != nil {
		f.onExpire()
	}
	return domain.StatusCanceled, nil
}

func newChargeEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *fakeCharges, ChargeInput) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f := &fakeCharges{calls: map[string]int{}}
	env.RegisterActivityWithOptions(f.ensure, activity.RegisterOptions{Name: actName(chargeActs.EnsureCharge)})
	env.RegisterActivityWithOptions(f.settle, activity.RegisterOptions{Name: actName(chargeActs.SettleCharge)})
	env.RegisterActivityWithOptions(f.fail, activity.RegisterOptions{Name: actName(chargeActs.FailCharge)})
	env.RegisterActivityWithOptions(f.expire, activity.RegisterOptions{Name: actName(chargeActs.ExpireCharge)})
	start := env.Now()
	in := ChargeInput{Charge: domain.Transaction{ID: "c1", Status: domain.StatusPending, ExpiresAt: domain.TimePtr(start.Add(24 * time.Hour))}}
	return env, f, in
}

func result(t *testing.T, env *testsuite.TestWorkflowEnvironment) string {
	t.Helper()
	if !env.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var status string
	if err := env.GetWorkflowResult(&status); err != nil {
		t.Fatal(err)
	}
	return status
}

func TestChargeExpiresAtExpiresAtWithoutWaiting(t *testing.T) {
	env, f, in := newChargeEnv(t)
	began := time.Now()
	start := env.Now()
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCanceled {
		t.Fatalf("status %s", got)
	}
	if elapsed := env.Now().Sub(start); elapsed < 24*time.Hour-time.Second || elapsed > 24*time.Hour+time.Second {
		t.Fatalf("expired after %v of workflow time, want 24h", elapsed)
	}
	if time.Since(began) > 5*time.Second {
		t.Fatal("the test waited in real time")
	}
	// A deferred charge has no guard step: its create committed the row.
	if f.calls["expire"] != 1 || f.calls["settle"] != 0 || f.calls["ensure"] != 0 {
		t.Fatalf("calls %v", f.calls)
	}
}

// Histories recorded before deferred starts (DefaultVersion) replay their
// guard step and run the transitions as activities, as they were recorded.
func TestChargeHistoriesBeforeDeferredStartKeepTheirSteps(t *testing.T) {
	env, f, in := newChargeEnv(t)
	env.OnGetVersion(chargeDeferredChange, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	var activityKinds []string
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		activityKinds = append(activityKinds, info.ActivityType.Name)
	})
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{ChargeID: "c1", Outcome: processor.OutcomePaid, EndToEndID: "E1"})
	}, time.Hour)
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	if f.calls["ensure"] != 1 || f.calls["settle"] != 1 {
		t.Fatalf("calls %v", f.calls)
	}
	if len(activityKinds) != 1 || activityKinds[0] != actName(chargeActs.SettleCharge) {
		t.Fatalf("activities (not local) started: %v, want only the settle", activityKinds)
	}
}

// A new charge's transitions are local activities: no activity task is
// scheduled through the server.
func TestChargeTransitionsAreLocalActivities(t *testing.T) {
	env, f, in := newChargeEnv(t)
	activities := 0
	env.SetOnActivityStartedListener(func(*activity.Info, context.Context, converter.EncodedValues) { activities++ })
	locals := 0
	env.SetOnLocalActivityStartedListener(func(*activity.Info, context.Context, []any) { locals++ })
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{ChargeID: "c1", Outcome: processor.OutcomePaid, EndToEndID: "E1"})
	}, time.Minute)
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	if activities != 0 || locals != 1 || f.calls["settle"] != 1 {
		t.Fatalf("%d activities, %d local activities, calls %v; want 0, 1 settle", activities, locals, f.calls)
	}
}

// A database outage longer than any timeout does not lose the charge: its
// transition retries until the database answers, then the charge moves.
func TestChargeTransitionRetriesThroughALongOutage(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	start := env.Now()
	outageEnds := start.Add(24*time.Hour + 30*time.Minute)
	attempts := 0
	env.RegisterActivityWithOptions(func(context.Context, string) (string, error) {
		attempts++
		if env.Now().Before(outageEnds) {
			return "", errors.New("connection refused")
		}
		return domain.StatusCanceled, nil
	}, activity.RegisterOptions{Name: actName(chargeActs.ExpireCharge)})
	in := ChargeInput{Charge: domain.Transaction{ID: "c1", Status: domain.StatusPending, ExpiresAt: domain.TimePtr(start.Add(24 * time.Hour))}}
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCanceled {
		t.Fatalf("status %s", got)
	}
	if attempts < 10 {
		t.Fatalf("%d attempts: the transition should have retried through the 30 min outage", attempts)
	}
}
