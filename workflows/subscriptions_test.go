package workflows

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain/billing"
)

// fakeSubscription stands in for the subscription activities over one row:
// each cycle's billing is recorded at the test clock's time.
type fakeSubscription struct {
	env      *testsuite.TestWorkflowEnvironment
	mu       sync.Mutex
	row      billing.Subscription
	billedAt []time.Time
	cycles   []int
	canceled []string // billings canceled
}

func (f *fakeSubscription) run(_ context.Context, in activities.CycleInput) (billing.Subscription, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.row.Status != billing.SubscriptionActive || f.row.NextCycle != in.Cycle {
		return f.row, nil
	}
	f.billedAt = append(f.billedAt, f.env.Now())
	f.cycles = append(f.cycles, in.Cycle)
	f.row = f.row.Advanced(in.Cycle, "bill-"+f.row.DueOf(in.Cycle).Format(time.DateOnly), "")
	return f.row, nil
}

func (f *fakeSubscription) cancel(_ context.Context, id string) (billing.Subscription, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.row.Status != billing.SubscriptionCanceled {
		f.row.Status = billing.SubscriptionCanceled
		if f.row.LastBillingID != "" {
			f.canceled = append(f.canceled, f.row.LastBillingID)
		}
	}
	return f.row, nil
}

var subscriptionActs *activities.Subscriptions

// subscriptionEnv starts the test clock at start with a subscription of
// cycle whose first due date is anchor.
func subscriptionEnv(start time.Time, cycle, anchor string) (*testsuite.TestWorkflowEnvironment, *fakeSubscription, SubscriptionInput) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(start)
	sub := billing.Subscription{ID: "sub1", AccountID: "a1", ExternalID: "ext1", Status: billing.SubscriptionActive, Method: "PIX",
		Amount: 4990, Cycle: cycle, Anchor: anchor, NextCycle: 1, NextDueDate: anchor}
	f := &fakeSubscription{env: env, row: sub}
	env.RegisterActivityWithOptions(f.run, activity.RegisterOptions{Name: actName(subscriptionActs.RunSubscriptionCycle)})
	env.RegisterActivityWithOptions(f.cancel, activity.RegisterOptions{Name: actName(subscriptionActs.CancelSubscription)})
	return env, f, SubscriptionInput{Subscription: sub}
}

// cancelAfter sends the cancel update (addressed to target) after d.
func cancelAfter(env *testsuite.TestWorkflowEnvironment, d time.Duration, target string, out *billing.SubscriptionRecord, errOut *error) {
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(SubscriptionCancel, "cancel-"+target, &testsuite.TestUpdateCallback{
			OnReject: func(err error) { *errOut = err },
			OnAccept: func() {},
			OnComplete: func(v any, err error) {
				*errOut = err
				if rec, ok := v.(billing.SubscriptionRecord); ok {
					*out = rec
				}
			},
		}, SubscriptionTarget{SubscriptionID: target})
	}, d)
}

// billedDays are the local (São Paulo) instants the cycles billed at.
func billedDays(f *fakeSubscription) []string {
	out := make([]string, len(f.billedAt))
	for i, t := range f.billedAt {
		out[i] = t.In(saoPaulo).Format("2006-01-02 15:04")
	}
	return out
}

func wantBilled(t *testing.T, f *fakeSubscription, want ...string) {
	t.Helper()
	got := billedDays(f)
	if len(got) != len(want) {
		t.Fatalf("billed %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i]+" 00:00" {
			t.Fatalf("billed %v, want %v (each at 00:00)", got, want)
		}
	}
}

func spTime(y int, m time.Month, d, h int) time.Time { return time.Date(y, m, d, h, 0, 0, 0, saoPaulo) }

// A monthly subscription due on the 31st bills at the start of each due
// day in São Paulo: the last day of shorter months, then the 31st again;
// cancel ends it, cancels the pending billing, and no cycle bills after.
func TestSubscriptionMonthlyClampsAndCancels(t *testing.T) {
	env, f, in := subscriptionEnv(spTime(2026, 1, 20, 15), billing.CycleMonthly, "2026-01-31")
	var rec billing.SubscriptionRecord
	var uerr error
	// 15 June 2026, 12:00 São Paulo.
	cancelAfter(env, spTime(2026, 6, 15, 12).Sub(spTime(2026, 1, 20, 15)), "sub1", &rec, &uerr)
	env.ExecuteWorkflow(SubscriptionWorkflow, in)
	if got := result(t, env); got != billing.SubscriptionCanceled {
		t.Fatalf("result %s", got)
	}
	wantBilled(t, f, "2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31")
	if uerr != nil || rec.Status != billing.SubscriptionCanceled || rec.NextDueDate != "" {
		t.Fatalf("cancel answered %+v, %v", rec, uerr)
	}
	if len(f.canceled) != 1 || f.canceled[0] != "bill-2026-05-31" {
		t.Fatalf("billings canceled %v, want the last cycle's", f.canceled)
	}
	if f.row.NextDueDate != "2026-06-30" {
		t.Fatalf("row's next due date %s", f.row.NextDueDate)
	}
}

// Leap years: a yearly subscription from 29 February bills on the 28th in
// common years and on the 29th again in the next leap year.
func TestSubscriptionYearlyLeapDay(t *testing.T) {
	env, f, in := subscriptionEnv(spTime(2028, 2, 1, 9), billing.CycleYearly, "2028-02-29")
	var rec billing.SubscriptionRecord
	var uerr error
	cancelAfter(env, spTime(2032, 3, 1, 0).Sub(spTime(2028, 2, 1, 9)), "sub1", &rec, &uerr)
	env.ExecuteWorkflow(SubscriptionWorkflow, in)
	result(t, env)
	wantBilled(t, f, "2028-02-29", "2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29")
}

// Every cycle's dates, each computed by the workflow's timers.
func TestSubscriptionEveryCycle(t *testing.T) {
	cases := []struct {
		cycle, anchor string
		want          []string
	}{
		{billing.CycleWeekly, "2026-12-28", []string{"2026-12-28", "2027-01-04", "2027-01-11", "2027-01-18"}},
		{billing.CycleBiweekly, "2028-02-20", []string{"2028-02-20", "2028-03-05", "2028-03-19", "2028-04-02"}},
		{billing.CycleMonthly, "2027-12-15", []string{"2027-12-15", "2028-01-15", "2028-02-15", "2028-03-15"}},
		{billing.CycleBimonthly, "2026-12-31", []string{"2026-12-31", "2027-02-28", "2027-04-30", "2027-06-30"}},
		{billing.CycleQuarterly, "2026-11-30", []string{"2026-11-30", "2027-02-28", "2027-05-30", "2027-08-30"}},
		{billing.CycleSemiannually, "2027-08-31", []string{"2027-08-31", "2028-02-29", "2028-08-31", "2029-02-28"}},
		{billing.CycleYearly, "2026-12-31", []string{"2026-12-31", "2027-12-31", "2028-12-31", "2029-12-31"}},
	}
	for _, c := range cases {
		t.Run(c.cycle, func(t *testing.T) {
			start := spTime(2026, 11, 25, 10)
			env, f, in := subscriptionEnv(start, c.cycle, c.anchor)
			last, _ := time.Parse(time.DateOnly, c.want[len(c.want)-1])
			var rec billing.SubscriptionRecord
			var uerr error
			// Cancel at noon of the last expected due day.
			cancelAfter(env, billing.DueInstant(last).Add(12*time.Hour).Sub(start), "sub1", &rec, &uerr)
			env.ExecuteWorkflow(SubscriptionWorkflow, in)
			result(t, env)
			wantBilled(t, f, c.want...)
			for i, n := range f.cycles {
				if n != i+1 {
					t.Fatalf("cycles %v", f.cycles)
				}
			}
		})
	}
}

// A due date already past when the workflow runs (its workers were down
// over the due day) bills at once: a restart loses no cycle.
func TestSubscriptionPastDueBillsAtOnce(t *testing.T) {
	start := spTime(2026, 3, 3, 8)
	env, f, in := subscriptionEnv(start, billing.CycleWeekly, "2026-03-01")
	var rec billing.SubscriptionRecord
	var uerr error
	cancelAfter(env, time.Hour, "sub1", &rec, &uerr)
	env.ExecuteWorkflow(SubscriptionWorkflow, in)
	result(t, env)
	if len(f.billedAt) != 1 || !f.billedAt[0].Equal(start) || f.row.NextDueDate != "2026-03-08" {
		t.Fatalf("billed %v, next %s; want cycle 1 at once, next on the 8th", billedDays(f), f.row.NextDueDate)
	}
}

// Cycles are local activities (no activity task through the server), and
// the workflow continues as new after CyclesPerRun cycles carrying the
// next cycle.
func TestSubscriptionContinuesAsNewWithTheNextCycle(t *testing.T) {
	env, f, in := subscriptionEnv(spTime(2026, 1, 1, 9), billing.CycleWeekly, "2026-01-05")
	remote := 0
	env.SetOnActivityStartedListener(func(*activity.Info, context.Context, converter.EncodedValues) { remote++ })
	env.ExecuteWorkflow(SubscriptionWorkflow, in)
	if !env.IsWorkflowCompleted() {
		t.Fatal("not completed")
	}
	err := env.GetWorkflowError()
	var can *workflow.ContinueAsNewError
	if !errors.As(err, &can) {
		t.Fatalf("error %v, want continue-as-new", err)
	}
	if len(f.cycles) != CyclesPerRun || remote != 0 {
		t.Fatalf("%d cycles, %d remote activities", len(f.cycles), remote)
	}
	var next SubscriptionInput
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	if next.Subscription.NextCycle != CyclesPerRun+1 || next.Subscription.NextDueDate != f.row.NextDueDate {
		t.Fatalf("continued with %+v, row %+v", next.Subscription, f.row)
	}
}

// A cancel update naming another subscription is rejected and changes
// nothing.
func TestSubscriptionCancelAddressedElsewhereIsRejected(t *testing.T) {
	env, f, in := subscriptionEnv(spTime(2026, 1, 1, 9), billing.CycleMonthly, "2026-01-10")
	var rec billing.SubscriptionRecord
	var wrong, right error
	cancelAfter(env, 48*time.Hour, "sub2", &rec, &wrong)
	cancelAfter(env, 72*time.Hour, "sub1", &rec, &right)
	env.ExecuteWorkflow(SubscriptionWorkflow, in)
	result(t, env)
	if wrong == nil || right != nil {
		t.Fatalf("wrong target: %v, right target: %v", wrong, right)
	}
	if len(f.billedAt) != 0 || len(f.canceled) != 0 {
		t.Fatalf("billed %v, canceled %v before the first due date", billedDays(f), f.canceled)
	}
}
