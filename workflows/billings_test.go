package workflows

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/processor"
)

var billingActs *activities.Billings

// fakeBillings records the billing activities that ran, and answers the
// status each would store.
type fakeBillings struct{ calls []string }

func (f *fakeBillings) submit(context.Context, string) error {
	f.calls = append(f.calls, "submit")
	return nil
}
func (f *fakeBillings) pay(_ context.Context, in activities.BillingPaidInput) (string, error) {
	f.calls = append(f.calls, "pay")
	return billing.BillingConfirmed, nil
}
func (f *fakeBillings) payBoleto(_ context.Context, in activities.BillingPaidInput) (string, error) {
	f.calls = append(f.calls, "pay")
	return billing.BillingReceived, nil
}
func (f *fakeBillings) receive(context.Context, string) (string, error) {
	f.calls = append(f.calls, "receive")
	return billing.BillingReceived, nil
}
func (f *fakeBillings) overdue(context.Context, string) (string, error) {
	f.calls = append(f.calls, "overdue")
	return billing.BillingOverdue, nil
}
func (f *fakeBillings) fail(context.Context, activities.BillingFailInput) (string, error) {
	f.calls = append(f.calls, "fail")
	return billing.BillingFailed, nil
}
func (f *fakeBillings) cancel(context.Context, string) (string, error) {
	f.calls = append(f.calls, "cancel")
	return billing.BillingCanceled, nil
}

func (f *fakeBillings) void(context.Context, string) (string, error) {
	f.calls = append(f.calls, "void")
	return billing.BillingCanceled, nil
}

func newBillingEnv(t *testing.T, method string, boletoPay bool) (*testsuite.TestWorkflowEnvironment, *fakeBillings, BillingInput) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f := &fakeBillings{}
	pay := f.pay
	if boletoPay {
		pay = f.payBoleto
	}
	env.RegisterActivityWithOptions(f.submit, activity.RegisterOptions{Name: actName(billingActs.SubmitCard)})
	env.RegisterActivityWithOptions(pay, activity.RegisterOptions{Name: actName(billingActs.PayBilling)})
	env.RegisterActivityWithOptions(f.receive, activity.RegisterOptions{Name: actName(billingActs.ReceiveBilling)})
	env.RegisterActivityWithOptions(f.overdue, activity.RegisterOptions{Name: actName(billingActs.OverdueBilling)})
	env.RegisterActivityWithOptions(f.fail, activity.RegisterOptions{Name: actName(billingActs.FailBilling)})
	env.RegisterActivityWithOptions(f.cancel, activity.RegisterOptions{Name: actName(billingActs.CancelBilling)})
	env.RegisterActivityWithOptions(f.void, activity.RegisterOptions{Name: actName(billingActs.VoidBoleto)})
	// Due in two days (São Paulo dates).
	due := domain.Today(env.Now()).AddDate(0, 0, 2)
	return env, f, BillingInput{Billing: billing.Billing{ID: "b1", Method: method, Status: billing.BillingPending, Amount: 1000, DueDate: due}}
}

func billingResult(t *testing.T, env *testsuite.TestWorkflowEnvironment) string {
	t.Helper()
	if !env.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var s string
	if err := env.GetWorkflowResult(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBoletoOverdueAtTheEndOfItsDueDateThenPaid(t *testing.T) {
	env, f, in := newBillingEnv(t, domain.MethodBoleto, true)
	start := env.Now()
	dueEnd := billing.DueEnd(in.Billing.DueDate)
	var overdueAt time.Time
	env.SetOnLocalActivityStartedListener(func(info *activity.Info, _ context.Context, _ []any) {
		if info.ActivityType.Name == actName(billingActs.OverdueBilling) {
			overdueAt = env.Now()
		}
	})
	// Paid a week after its due date: still payable.
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(BillingSignal, processor.BillingNotice{BillingID: "b1", Outcome: processor.OutcomePaid, At: env.Now()})
	}, dueEnd.Sub(start)+7*24*time.Hour)
	env.ExecuteWorkflow(BillingWorkflow, in)
	if s := billingResult(t, env); s != billing.BillingReceived {
		t.Fatalf("status %s", s)
	}
	if d := overdueAt.Sub(dueEnd).Abs(); d > time.Second {
		t.Errorf("overdue at %s, want the end of the due date %s", overdueAt, dueEnd)
	}
	if got := f.calls; len(got) != 2 || got[0] != "overdue" || got[1] != "pay" {
		t.Errorf("steps %v", got)
	}
}

func TestOverdueBillingCanceledWhenItsPayablePeriodEnds(t *testing.T) {
	env, f, in := newBillingEnv(t, domain.MethodBoleto, true)
	env.ExecuteWorkflow(BillingWorkflow, in)
	if s := billingResult(t, env); s != billing.BillingCanceled {
		t.Fatalf("status %s", s)
	}
	if got := f.calls; len(got) != 3 || got[0] != "overdue" || got[1] != "cancel" || got[2] != "void" {
		t.Errorf("steps %v", got)
	}
}

func TestCardSubmittedConfirmedThenReceivedAtItsCreditDate(t *testing.T) {
	env, f, in := newBillingEnv(t, domain.MethodCardCredit, false)
	var paidAt, receivedAt time.Time
	env.SetOnLocalActivityStartedListener(func(info *activity.Info, _ context.Context, _ []any) {
		switch info.ActivityType.Name {
		case actName(billingActs.PayBilling):
			paidAt = env.Now()
		case actName(billingActs.ReceiveBilling):
			receivedAt = env.Now()
		}
	})
	env.RegisterDelayedCallback(func() {
		// A notice naming another billing is ignored.
		env.SignalWorkflow(BillingSignal, processor.BillingNotice{BillingID: "other", Outcome: processor.OutcomeFailed})
		env.SignalWorkflow(BillingSignal, processor.BillingNotice{BillingID: "b1", Outcome: processor.OutcomePaid})
	}, time.Minute)
	env.ExecuteWorkflow(BillingWorkflow, in)
	if s := billingResult(t, env); s != billing.BillingReceived {
		t.Fatalf("status %s", s)
	}
	if got := f.calls; len(got) != 3 || got[0] != "submit" || got[1] != "pay" || got[2] != "receive" {
		t.Errorf("steps %v", got)
	}
	if d := receivedAt.Sub(paidAt); d < 30*24*time.Hour-time.Minute || d > 30*24*time.Hour+time.Minute {
		t.Errorf("received %v after paid, want 30 days", d)
	}
}

func TestDeclinedCardFails(t *testing.T) {
	env, f, in := newBillingEnv(t, domain.MethodCardVoucher, false)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(BillingSignal, processor.BillingNotice{BillingID: "b1", Outcome: processor.OutcomeFailed, Reason: "declined"})
	}, time.Second)
	env.ExecuteWorkflow(BillingWorkflow, in)
	if s := billingResult(t, env); s != billing.BillingFailed {
		t.Fatalf("status %s", s)
	}
	if got := f.calls; len(got) != 2 || got[1] != "fail" {
		t.Errorf("steps %v", got)
	}
}

func TestPixBillingFollowsItsCharge(t *testing.T) {
	env, f, in := newBillingEnv(t, domain.MethodPix, false)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(BillingChargeSignal, activities.ChargeMoved{OwnerKind: activities.OwnerBilling, OwnerID: "b1", ChargeID: "c1", Status: domain.StatusCompleted})
	}, time.Hour)
	env.ExecuteWorkflow(BillingWorkflow, in)
	if s := billingResult(t, env); s != billing.BillingReceived {
		t.Fatalf("status %s", s)
	}
	if len(f.calls) != 0 { // the charge's transition moved the billing
		t.Errorf("steps %v", f.calls)
	}
}

func TestCanceledBillingEnds(t *testing.T) {
	env, f, in := newBillingEnv(t, domain.MethodBoleto, true)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(BillingCancelSignal, "b1") }, time.Hour)
	env.ExecuteWorkflow(BillingWorkflow, in)
	if s := billingResult(t, env); s != billing.BillingCanceled {
		t.Fatalf("status %s", s)
	}
	// Its boleto is voided at the registrar, which then refuses a payment.
	if got := f.calls; len(got) != 1 || got[0] != "void" {
		t.Errorf("steps %v", got)
	}
}

func TestCanceledCardDebitBillingEndsWithoutAVoid(t *testing.T) {
	env, f, in := newBillingEnv(t, domain.MethodCardDebit, false)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(BillingCancelSignal, "b1") }, time.Hour)
	env.ExecuteWorkflow(BillingWorkflow, in)
	if s := billingResult(t, env); s != billing.BillingCanceled || len(f.calls) != 0 {
		t.Fatalf("status %s, steps %v", s, f.calls)
	}
}

// A payment the registrar took before the void, whose notice arrived
// beside the cancel, is booked (a late payment) before the workflow ends:
// its money does not vanish with the workflow.
func TestPaymentBesideTheCancelIsBookedBeforeTheWorkflowEnds(t *testing.T) {
	env, f, in := newBillingEnv(t, domain.MethodBoleto, true)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(BillingCancelSignal, "b1") }, time.Hour)
	// The notice arrives while the registrar is asked to void.
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		if info.ActivityType.Name == actName(billingActs.VoidBoleto) {
			env.SignalWorkflow(BillingSignal, processor.BillingNotice{BillingID: "b1", Outcome: processor.OutcomePaid, At: env.Now()})
		}
	})
	env.ExecuteWorkflow(BillingWorkflow, in)
	if s := billingResult(t, env); s != billing.BillingReceived {
		t.Fatalf("status %s", s)
	}
	if got := f.calls; len(got) != 2 || got[0] != "void" || got[1] != "pay" {
		t.Errorf("steps %v", got)
	}
}
