package workflows

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// fakeCharges records which transition activities ran and how often.
type fakeCharges struct {
	calls map[string]int
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
	if f.calls["expire"] != 1 || f.calls["settle"] != 0 || f.calls["ensure"] != 1 {
		t.Fatalf("calls %v", f.calls)
	}
}

func TestChargePaidBeforeExpiry(t *testing.T) {
	env, f, in := newChargeEnv(t)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{Outcome: processor.OutcomePaid, EndToEndID: "E1"})
	}, time.Hour)
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	if f.calls["settle"] != 1 || f.calls["expire"] != 0 {
		t.Fatalf("calls %v", f.calls)
	}
}

func TestChargeDuplicateConfirmationsAreHarmless(t *testing.T) {
	env, f, in := newChargeEnv(t)
	env.RegisterDelayedCallback(func() {
		for range 3 {
			env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{Outcome: processor.OutcomePaid, EndToEndID: "E1"})
		}
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{Outcome: processor.OutcomeFailed})
	}, time.Minute)
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	if f.calls["settle"] != 1 || f.calls["fail"] != 0 {
		t.Fatalf("calls %v", f.calls)
	}
}

func TestChargeIgnoresUnknownNoticesAndFails(t *testing.T) {
	env, f, in := newChargeEnv(t)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{Outcome: "bogus"})
	}, time.Minute)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{Outcome: processor.OutcomeFailed})
	}, 2*time.Minute)
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusFailed {
		t.Fatalf("status %s", got)
	}
	if f.calls["fail"] != 1 {
		t.Fatalf("calls %v", f.calls)
	}
}

func TestChargeExpireNoticeCancelsAtOnce(t *testing.T) {
	env, f, in := newChargeEnv(t)
	start := env.Now()
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{Outcome: processor.OutcomeExpired})
	}, time.Minute)
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCanceled {
		t.Fatalf("status %s", got)
	}
	if env.Now().Sub(start) > time.Hour || f.calls["expire"] != 1 {
		t.Fatalf("expired late (%v) or calls %v", env.Now().Sub(start), f.calls)
	}
}

// A database outage longer than any timeout does not lose the charge: its
// first step retries until the database answers, then the charge proceeds.
func TestChargeEnsureRetriesThroughALongOutage(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f := &fakeCharges{calls: map[string]int{}}
	start := env.Now()
	outageEnds := start.Add(30 * time.Minute)
	env.RegisterActivityWithOptions(func(context.Context, domain.Transaction) error {
		f.calls["ensure"]++
		if env.Now().Before(outageEnds) {
			return errors.New("connection refused")
		}
		return nil
	}, activity.RegisterOptions{Name: actName(chargeActs.EnsureCharge)})
	env.RegisterActivityWithOptions(f.expire, activity.RegisterOptions{Name: actName(chargeActs.ExpireCharge)})
	in := ChargeInput{Charge: domain.Transaction{ID: "c1", Status: domain.StatusPending, ExpiresAt: domain.TimePtr(start.Add(24 * time.Hour))}}
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCanceled {
		t.Fatalf("status %s", got)
	}
	if f.calls["ensure"] < 10 || f.calls["expire"] != 1 {
		t.Fatalf("calls %v: the first step should have retried through the 30 min outage", f.calls)
	}
}
