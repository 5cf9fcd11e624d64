package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// RechargeCanceled is the outcome the cancel use case signals (on
// NoticeSignal, as a processor.RechargeNotice naming the recharge) once its
// cancellation has committed: the workflow checks the stored status and
// ends. A forged one finds the recharge still PENDING and changes nothing.
const RechargeCanceled = "canceled"

// RechargeInput is the recharge workflow's input: the record, so that its
// guard step can write it if it was not committed.
type RechargeInput struct {
	Recharge domain.Transaction
}

// RechargeWorkflowID derives the workflow id from the recharge id.
func RechargeWorkflowID(id string) string { return "recharge/" + id }

// RechargeStart is how the API starts a recharge's workflow.
func RechargeStart(t domain.Transaction) Start {
	r := t.Details.V.Recharge
	return Start{
		ID: RechargeWorkflowID(t.ID), AccountID: t.AccountID, ResourceID: t.ID, ResourceType: t.Type, Status: t.Status, Amount: t.Amount,
		Summary: "Mobile recharge " + t.Amount.Format() + " " + r.Operator,
		Details: "Account `" + t.AccountID + "`, recharge `" + t.ID + "`. Signal `" + NoticeSignal + "` with {\"rechargeId\":\"" + t.ID +
			"\",\"outcome\":\"completed\"|\"failed\"} acts as the operator (a notice naming another recharge is ignored).",
		Memo: map[string]any{"rechargeId": t.ID, "amount": t.Amount.String()},
	}
}

var _ = host(RechargeWorkflow)

// RechargeWorkflow drives one mobile recharge: paid (reserve) → submitted
// to the operator → delivered (COMPLETED) or failed (FAILED, reserve
// returned), as the operator's notice says; or cancelled by the merchant
// while PENDING (the cancel use case moves the record, under the row lock
// the delivery takes too, and tells the workflow to end).
func RechargeWorkflow(ctx workflow.Context, in RechargeInput) (string, error) {
	var a *activities.Recharges
	id := in.Recharge.ID
	var status string
	if err := ensureActivity(ctx, a.EnsureRecharge, in.Recharge, &status); err != nil || status != domain.StatusPending {
		return status, err
	}
	actx := moneyActivities(ctx)
	if err := workflow.ExecuteActivity(actx, a.SubmitRecharge, id).Get(ctx, nil); err != nil {
		return "", err
	}
	accept := func(n processor.RechargeNotice) bool { return n.Final() || n.Outcome == RechargeCanceled }
	for status == domain.StatusPending {
		n, _ := awaitSignal(ctx, NoticeSignal, 0,
			addressedTo(ctx, true, NoticeSignal, id, func(n processor.RechargeNotice) string { return n.RechargeID }, accept))
		ni := activities.RechargeNoticeInput{ID: id, Notice: n}
		var err error
		switch n.Outcome {
		case processor.OutcomeCompleted:
			err = workflow.ExecuteActivity(actx, a.CompleteRecharge, ni).Get(ctx, &status)
		case processor.OutcomeFailed:
			err = workflow.ExecuteActivity(actx, a.FailRecharge, ni).Get(ctx, &status)
		default:
			err = workflow.ExecuteActivity(actx, a.RechargeStatus, id).Get(ctx, &status)
		}
		if err != nil {
			return "", err
		}
	}
	return status, setStatus(ctx, status)
}
