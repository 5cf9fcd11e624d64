package workflows

import (
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain/billing"
)

// SubscriptionCancel is the update that cancels a subscription; its
// argument is a SubscriptionTarget, and it answers with the record.
const SubscriptionCancel = "cancel"

// SubscriptionTarget names the subscription an update is for: the
// workflow rejects an update naming another one, or none, so that an
// update cannot be replayed from another subscription's history.
type SubscriptionTarget struct {
	SubscriptionID string `json:"subscriptionId"`
}

// ResourceSubscription is the JangadaResourceType of subscription workflows.
const ResourceSubscription = "SUBSCRIPTION"

// CyclesPerRun bounds the cycles of one workflow run: a weekly
// subscription lives for years, its history must not grow with it. Each
// cycle adds about five events (timer fired, one workflow task, the local
// activity's marker, the next timer), so a run stays far below Temporal's
// warning threshold.
const CyclesPerRun = 50

// SubscriptionInput starts (or continues) a subscription's workflow.
type SubscriptionInput struct {
	// Subscription is the row as created, or as the last cycle left it
	// (continue-as-new carries the next cycle in NextCycle/NextDueDate).
	Subscription billing.Subscription
}

// SubscriptionWorkflowID derives the workflow id from the subscription id.
func SubscriptionWorkflowID(id string) string { return "subscription/" + id }

// SubscriptionStart is how the API starts a subscription's workflow.
func SubscriptionStart(s billing.Subscription) Start {
	return Start{
		ID: SubscriptionWorkflowID(s.ID), AccountID: s.AccountID, ResourceID: s.ID, ResourceType: ResourceSubscription,
		Status: s.Status, Amount: s.Amount,
		Summary: "Subscription " + s.Cycle + " " + s.Method + " " + s.Amount.Format() + " from " + s.Anchor,
		Details: "Account `" + s.AccountID + "`, subscription `" + s.ID + "` (externalId `" + s.ExternalID + "`). Update `" +
			SubscriptionCancel + "` with {\"subscriptionId\":\"" + s.ID + "\"} cancels it.",
		Memo: map[string]any{"subscriptionId": s.ID, "externalId": s.ExternalID},
	}
}

// suba names the subscription activities by Go reference.
var suba *activities.Subscriptions

var _ = host(SubscriptionWorkflow)

// SubscriptionWorkflow bills one subscription, cycle after cycle, until it
// is canceled. It sleeps on a durable timer until the start of the next
// due date (America/Sao_Paulo), then runs the cycle as one local activity
// (the billing through the billing use case, and the row's next cycle)
// inside the workflow task the timer woke, and arms the next timer in the
// same task: a cycle costs one workflow task beyond the billing it makes.
// A due date already past (the workers were down) bills at once: no cycle
// is lost. Every CyclesPerRun cycles it continues as new.
func SubscriptionWorkflow(ctx workflow.Context, in SubscriptionInput) (string, error) {
	s := in.Subscription
	cancelAsked := false
	var answer billing.SubscriptionRecord
	answered := false
	if err := workflow.SetUpdateHandlerWithOptions(ctx, SubscriptionCancel,
		func(ctx workflow.Context, _ SubscriptionTarget) (billing.SubscriptionRecord, error) {
			cancelAsked = true
			if err := workflow.Await(ctx, func() bool { return answered }); err != nil {
				return billing.SubscriptionRecord{}, err
			}
			return answer, nil
		},
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, t SubscriptionTarget) error {
			if t.SubscriptionID != s.ID {
				workflow.GetLogger(ctx).Warn("rejecting an update addressed to another subscription",
					"subscription", s.ID, "addressedTo", t.SubscriptionID)
				return temporal.NewNonRetryableApplicationError(
					"the update names subscription \""+t.SubscriptionID+"\", not "+s.ID, "WrongSubscription", nil)
			}
			return nil
		}}); err != nil {
		return "", err
	}
	for cycles := 0; ; {
		if cancelAsked || s.Status == billing.SubscriptionCanceled {
			if err := moneyStep(ctx, true, suba.CancelSubscription, s.ID, &s); err != nil {
				return "", err
			}
			if err := setStatus(ctx, s.Status); err != nil {
				return "", err
			}
			answer, answered = s.Public(), true
			if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
				return "", err
			}
			return s.Status, nil
		}
		if cycles >= CyclesPerRun || workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			return "", workflow.NewContinueAsNewError(ctx, SubscriptionWorkflow, SubscriptionInput{Subscription: s})
		}
		due := billing.DueInstant(s.DueOf(s.NextCycle))
		if d := due.Sub(workflow.Now(ctx)); d > 0 {
			woken, err := workflow.AwaitWithTimeout(ctx, d, func() bool { return cancelAsked })
			if err != nil {
				return "", err
			}
			if woken {
				continue
			}
		}
		var next billing.Subscription
		if err := moneyStep(ctx, true, suba.RunSubscriptionCycle,
			activities.CycleInput{SubscriptionID: s.ID, Cycle: s.NextCycle}, &next); err != nil {
			return "", err
		}
		if next.Status == billing.SubscriptionActive && next.NextCycle <= s.NextCycle {
			// This workflow is the row's only writer: a row that did not
			// move past the cycle it billed is a bug, not a state to loop on.
			return "", temporal.NewNonRetryableApplicationError("subscription "+s.ID+" did not advance past its cycle", "Stuck", nil)
		}
		s = next
		cycles++
	}
}
