package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain/bureau"
	"github.com/jangada/jangada/processor"
)

// ResourceDunning is the JangadaResourceType of dunning workflows.
const ResourceDunning = "DUNNING"

// DunningInput starts a dunning's workflow.
type DunningInput struct {
	Dunning bureau.Dunning
}

// DunningWorkflowID derives the workflow id from the dunning id.
func DunningWorkflowID(id string) string { return "dunning/" + id }

// DunningStart is how the API starts a dunning's workflow.
func DunningStart(d bureau.Dunning) Start {
	return Start{
		ID: DunningWorkflowID(d.ID), AccountID: d.AccountID, ResourceID: d.ID, ResourceType: ResourceDunning,
		Status: d.Status, Amount: d.Value,
		Summary: "Dunning of billing " + d.Payment + " (" + d.Value.Format() + ") with the credit bureau",
		Details: "Account `" + d.AccountID + "`, dunning `" + d.ID + "`, billing `" + d.Payment + "`. Signal `" + NoticeSignal +
			"` carries the bureau's answer (processor.DunningNotice naming this dunning).",
		Memo: map[string]any{"dunningId": d.ID, "payment": d.Payment},
	}
}

// ba names the credit bureau activities by Go reference.
var ba *activities.Bureau

var _ = host(DunningWorkflow)

// DunningWorkflow follows one dunning through the bureau: it submits the
// dunning (AWAITING_APPROVAL), waits for the bureau's answer as a signal
// (the bureau takes days: a durable wait, no polling) and concludes it
// (PROCESSED, or DENIED with the fee returned).
func DunningWorkflow(ctx workflow.Context, in DunningInput) (string, error) {
	id := in.Dunning.ID
	var d bureau.Dunning
	if err := workflow.ExecuteActivity(moneyActivities(ctx), ba.SubmitDunning, id).Get(ctx, &d); err != nil {
		return "", err
	}
	if err := setStatus(ctx, d.Status); err != nil {
		return "", err
	}
	if d.Status == bureau.DunningAwaitingApproval {
		n, _ := awaitSignal(ctx, NoticeSignal, 0, func(n processor.DunningNotice) bool { return n.DunningID == id && n.Final() })
		if err := moneyStep(ctx, true, ba.ConcludeDunning, n, &d); err != nil {
			return "", err
		}
		if err := setStatus(ctx, d.Status); err != nil {
			return "", err
		}
	}
	return d.Status, nil
}
