package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// RefundInput is the refund workflow's input: the deposit with its refund
// block, so that the workflow can request it if the API died first.
type RefundInput struct {
	Deposit domain.Transaction
}

// RefundWorkflowID derives the workflow id from the deposit: one refund per
// deposit, ever.
func RefundWorkflowID(depositID string) string { return "refund/" + depositID }

// RefundStart is how the API starts a refund's workflow.
func RefundStart(d domain.Transaction) Start {
	return Start{
		ID: RefundWorkflowID(d.ID), AccountID: d.AccountID, ResourceID: d.ID, ResourceType: domain.TypeRefund,
		Status: domain.StatusPending, Amount: d.Amount,
		Summary: "PIX refund " + d.Amount.Format() + " of deposit " + d.ID,
		Details: "Account `" + d.AccountID + "`. Signal `" + NoticeSignal + "` with {\"depositId\":\"" + d.ID + "\",\"outcome\":\"settled\"|\"failed\"} acts as the processor " +
			"(a notice naming another deposit is ignored).",
		Memo: map[string]any{"depositId": d.ID},
	}
}

var _ = host(RefundWorkflow)

// RefundWorkflow drives one refund: requested (debit reserved) → submitted
// to the processor → COMPLETED (deposit REVERSED) or FAILED (debit
// returned), as the processor's notice says.
func RefundWorkflow(ctx workflow.Context, in RefundInput) (string, error) {
	var a *activities.Refunds
	id := in.Deposit.ID
	// Only a notice naming this deposit counts (see addressedChange).
	addressed := addressedOnly(ctx)
	var status string
	if err := ensureActivity(ctx, a.EnsureRefund, in.Deposit, &status); err != nil || status == domain.StatusFailed || status == domain.StatusCompleted {
		return status, err
	}
	actx := moneyActivities(ctx)
	if err := workflow.ExecuteActivity(actx, a.SubmitRefund, id).Get(ctx, nil); err != nil {
		return "", err
	}
	n, _ := awaitSignal(ctx, NoticeSignal, 0,
		addressedTo(ctx, addressed, NoticeSignal, id, func(n processor.RefundNotice) string { return n.DepositID }, processor.RefundNotice.Final))
	final, err := domain.StatusCompleted, error(nil)
	if n.Outcome == processor.OutcomeSettled {
		err = workflow.ExecuteActivity(actx, a.CompleteRefund, activities.CompleteRefundInput{ID: id, Notice: n}).Get(ctx, nil)
		if err == nil {
			err = withdrawFiscalInvoice(ctx, in.Deposit)
		}
	} else {
		final = domain.StatusFailed
		err = workflow.ExecuteActivity(actx, a.FailRefund, activities.FailInput{ID: id, Reason: n.Reason}).Get(ctx, nil)
	}
	if err != nil {
		return "", err
	}
	return final, setStatus(ctx, final)
}
