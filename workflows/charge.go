package workflows

import (
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// ChargeSignal is the signal through which processor notices reach a charge.
const ChargeSignal = "processor-notice"

// ChargeInput is the charge workflow's input: the whole record, so that the
// workflow can create the row itself if the API died before committing it.
type ChargeInput struct {
	Charge domain.Transaction
}

// ChargeWorkflowID derives the workflow id from the charge id: one workflow per
// charge, and any process can find it.
func ChargeWorkflowID(chargeID string) string { return "charge/" + chargeID }

// ChargeStartOptions are the options the API starts a charge workflow with.
func ChargeStartOptions(t domain.Transaction, taskQueue string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{
		ID:        ChargeWorkflowID(t.ID),
		TaskQueue: taskQueue,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			AccountIDKey.ValueSet(t.AccountID),
			ResourceIDKey.ValueSet(t.ID),
			ResourceTypeKey.ValueSet(t.Type),
			StatusKey.ValueSet(t.Status),
			AmountKey.ValueSet(float64(t.Amount)/100),
		),
		StaticSummary: "PIX charge " + t.Amount.Format() + " · " + t.Description,
		StaticDetails: "Account `" + t.AccountID + "`, charge `" + t.ID + "`. Signal `" + ChargeSignal +
			"` with {\"outcome\":\"paid\"|\"failed\"|\"expired\"} to act as the processor.",
		Memo:                                     map[string]any{"accountId": t.AccountID, "chargeId": t.ID, "amount": t.Amount.String()},
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		// With a worker in the same process (dev, or a combined deployment)
		// the first workflow task comes back in the start response instead
		// of a matching round trip; elsewhere the server ignores it.
		EnableEagerStart: true,
	}
}

// ChargeActivities names the activities the charge workflow calls; the
// worker registers an implementation under these names.
const (
	ActEnsureCharge = "EnsureCharge"
	ActSettleCharge = "SettleCharge"
	ActFailCharge   = "FailCharge"
	ActExpireCharge = "ExpireCharge"
)

// SettleInput carries a confirmed deposit to the settle activity.
type SettleInput struct {
	ChargeID string
	Notice   processor.ChargeNotice
}

// ChargeWorkflow drives one PIX charge: PENDING until the processor confirms
// the deposit (COMPLETED), reports a failure (FAILED) or the QR expires at
// expiresAt (CANCELED), whichever comes first. Each transition is one
// idempotent activity writing ledger, charge and outbox event together.
func ChargeWorkflow(ctx workflow.Context, in ChargeInput) (string, error) {
	// The API normally commits the row before this runs; this local activity
	// is the safety net for an API that died between start and commit.
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: 10 * time.Minute,
		StartToCloseTimeout:    10 * time.Second,
	})
	if err := workflow.ExecuteLocalActivity(lctx, ActEnsureCharge, in.Charge).Get(ctx, nil); err != nil {
		return "", err
	}

	notices := workflow.GetSignalChannel(ctx, ChargeSignal)
	timerCtx, cancelTimer := workflow.WithCancel(ctx)
	wait := time.Duration(0)
	if in.Charge.ExpiresAt != nil {
		wait = max(in.Charge.ExpiresAt.Sub(workflow.Now(ctx)), 0)
	}
	expiry := workflow.NewTimer(timerCtx, wait)

	var notice processor.ChargeNotice
	for notice.Outcome == "" {
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(notices, func(c workflow.ReceiveChannel, _ bool) {
			var n processor.ChargeNotice
			c.Receive(ctx, &n)
			switch n.Outcome {
			case processor.OutcomePaid, processor.OutcomeFailed, processor.OutcomeExpired:
				notice = n
			default:
				workflow.GetLogger(ctx).Warn("ignoring unknown charge notice", "outcome", n.Outcome)
			}
		})
		sel.AddFuture(expiry, func(workflow.Future) {
			notice = processor.ChargeNotice{Outcome: processor.OutcomeExpired, At: workflow.Now(ctx)}
		})
		sel.Select(ctx)
	}
	cancelTimer()

	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		// Money must move eventually: retry until the database answers.
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})
	var status string
	var err error
	switch notice.Outcome {
	case processor.OutcomePaid:
		err = workflow.ExecuteActivity(actx, ActSettleCharge, SettleInput{ChargeID: in.Charge.ID, Notice: notice}).Get(ctx, &status)
	case processor.OutcomeFailed:
		err = workflow.ExecuteActivity(actx, ActFailCharge, in.Charge.ID).Get(ctx, &status)
	default:
		err = workflow.ExecuteActivity(actx, ActExpireCharge, in.Charge.ID).Get(ctx, &status)
	}
	if err != nil {
		return "", err
	}
	// Later duplicate notices are harmless: the charge has left PENDING.
	for notices.ReceiveAsync(nil) {
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx, StatusKey.ValueSet(status)); err != nil {
		return "", err
	}
	return status, nil
}
