package workflows

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/processor"
)

// newDebitEnv is a debit card billing's workflow environment whose
// ChargeDebitCard records the cards it was handed.
func newDebitEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *fakeBillings, BillingInput, *[]activities.DebitCardInput) {
	env, f, in := newBillingEnv(t, domain.MethodCardDebit, false)
	c := &fakeDebit{f: f}
	env.RegisterActivityWithOptions(c.charge, activity.RegisterOptions{Name: actName(billingActs.ChargeDebitCard)})
	return env, f, in, &c.charged
}

// fakeDebit records the cards ChargeDebitCard was handed.
type fakeDebit struct {
	f       *fakeBillings
	charged []activities.DebitCardInput
}

func (c *fakeDebit) charge(_ context.Context, d activities.DebitCardInput) error {
	c.f.calls = append(c.f.calls, "charge")
	c.charged = append(c.charged, d)
	return nil
}

// The payer's card (its token's id, sent by the invoice page) is charged
// once: a second card, a card for another billing are not; the acquirer's
// approval confirms the billing as a credit card's.
func TestDebitCardChargedOnceThenConfirmed(t *testing.T) {
	env, f, in, charged := newDebitEnv(t)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(BillingDebitCardSignal, activities.DebitCardInput{BillingID: "other", CardToken: "ctk_x"})
		env.SignalWorkflow(BillingDebitCardSignal, activities.DebitCardInput{BillingID: "b1", CardToken: "ctk_1"})
	}, time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(BillingDebitCardSignal, activities.DebitCardInput{BillingID: "b1", CardToken: "ctk_2"})
	}, 2*time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(BillingSignal, processor.BillingNotice{BillingID: "b1", Outcome: processor.OutcomePaid, At: env.Now()})
	}, 3*time.Hour)
	env.ExecuteWorkflow(BillingWorkflow, in)
	if s := billingResult(t, env); s != billing.BillingReceived {
		t.Fatalf("status %s", s)
	}
	if got := f.calls; len(got) != 3 || got[0] != "charge" || got[1] != "pay" || got[2] != "receive" {
		t.Errorf("steps %v, want charge, pay (CONFIRMED), receive", got)
	}
	if len(*charged) != 1 || (*charged)[0] != (activities.DebitCardInput{BillingID: "b1", CardToken: "ctk_1"}) {
		t.Errorf("charged %v, want the first card only", *charged)
	}
}

// A declined debit card fails the billing.
func TestDeclinedDebitCardFails(t *testing.T) {
	env, f, in, charged := newDebitEnv(t)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(BillingDebitCardSignal, activities.DebitCardInput{BillingID: "b1", CardToken: "ctk_1"})
	}, time.Minute)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(BillingSignal, processor.BillingNotice{BillingID: "b1", Outcome: processor.OutcomeFailed, Reason: "declined"})
	}, 2*time.Minute)
	env.ExecuteWorkflow(BillingWorkflow, in)
	if s := billingResult(t, env); s != billing.BillingFailed {
		t.Fatalf("status %s", s)
	}
	if got := f.calls; len(got) != 2 || got[0] != "charge" || got[1] != "fail" || len(*charged) != 1 {
		t.Errorf("steps %v, charged %v", got, *charged)
	}
}

// A debit signal to a billing of another method charges nothing.
func TestDebitCardSignalIgnoredByACreditCardBilling(t *testing.T) {
	env, f, in, charged := newDebitEnv(t)
	in.Billing.Method = domain.MethodCardCredit
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(BillingDebitCardSignal, activities.DebitCardInput{BillingID: "b1", CardToken: "ctk_1"})
	}, time.Minute)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(BillingSignal, processor.BillingNotice{BillingID: "b1", Outcome: processor.OutcomeFailed})
	}, 2*time.Minute)
	env.ExecuteWorkflow(BillingWorkflow, in)
	if s := billingResult(t, env); s != billing.BillingFailed || len(*charged) != 0 || f.calls[0] != "submit" {
		t.Errorf("status %s, steps %v, charged %v", s, f.calls, *charged)
	}
}
