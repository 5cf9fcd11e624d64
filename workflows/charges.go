package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// ChargeSignal carries a processor.ChargeNotice to a charge's workflow.
const ChargeSignal = "processor-notice"

// ChargeInput is the charge workflow's input: the whole record, so that the
// workflow's guard step can write the row if it was not committed.
type ChargeInput struct {
	Charge domain.Transaction
}

// ChargeWorkflowID derives the workflow id from the charge id: one workflow per
// charge, and any process can find it.
func ChargeWorkflowID(chargeID string) string { return "charge/" + chargeID }

// ChargeStart is how the API starts a charge's workflow.
func ChargeStart(t domain.Transaction) Start {
	return Start{
		ID: ChargeWorkflowID(t.ID), AccountID: t.AccountID, ResourceID: t.ID, ResourceType: t.Type, Status: t.Status, Amount: t.Amount,
		// Ids, amounts and statuses only: descriptions, payers and keys are
		// merchants' data and stay sealed in the payloads.
		Summary: "PIX charge " + t.Amount.Format(),
		Details: "Account `" + t.AccountID + "`, charge `" + t.ID + "`. Signal `" + ChargeSignal +
			"` with {\"outcome\":\"paid\"|\"failed\"|\"expired\"} to act as the processor.",
		Memo:  map[string]any{"chargeId": t.ID, "amount": t.Amount.String()},
		Eager: true,
	}
}

// ChargeWorkflow drives one PIX charge: PENDING until the processor confirms
// the deposit (COMPLETED), reports a failure (FAILED) or the QR expires at
// expiresAt (CANCELED), whichever comes first. Each transition is one
// idempotent activity writing ledger, charge and outbox event together.
func ChargeWorkflow(ctx workflow.Context, in ChargeInput) (string, error) {
	var a *activities.Charges
	// Creates commit the row before they start this workflow (service/
	// launch.go); this guard writes it only for a run started without it.
	if err := ensureActivity(ctx, a.EnsureCharge, in.Charge, nil); err != nil {
		return "", err
	}

	notice := processor.ChargeNotice{Outcome: processor.OutcomeExpired}
	var wait time.Duration
	if in.Charge.ExpiresAt != nil {
		wait = in.Charge.ExpiresAt.Sub(workflow.Now(ctx))
	}
	if wait > 0 {
		if n, ok := awaitSignal(ctx, ChargeSignal, wait, processor.ChargeNotice.Final); ok {
			notice = n
		}
	}

	actx := moneyActivities(ctx)
	var status string
	var err error
	switch notice.Outcome {
	case processor.OutcomePaid:
		err = workflow.ExecuteActivity(actx, a.SettleCharge, activities.SettleChargeInput{ChargeID: in.Charge.ID, Notice: notice}).Get(ctx, &status)
	case processor.OutcomeFailed:
		err = workflow.ExecuteActivity(actx, a.FailCharge, in.Charge.ID).Get(ctx, &status)
	default:
		err = workflow.ExecuteActivity(actx, a.ExpireCharge, in.Charge.ID).Get(ctx, &status)
	}
	if err != nil {
		return "", err
	}
	// Later duplicate notices are harmless: the charge has left PENDING.
	for workflow.GetSignalChannel(ctx, ChargeSignal).ReceiveAsync(nil) {
	}
	return status, setStatus(ctx, status)
}
