package workflows

import (
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// Refund activity names.
const (
	ActEnsureRefund   = "EnsureRefund"
	ActSubmitRefund   = "SubmitRefund"
	ActCompleteRefund = "CompleteRefund"
	ActFailRefund     = "FailRefund"
)

// RefundInput is the refund workflow's input: the deposit with its refund
// block, so that the workflow can request it if the API died first.
type RefundInput struct {
	Deposit         domain.Transaction
	AutoSettleAfter time.Duration
}

// RefundWorkflowID derives the workflow id from the deposit: one refund per
// deposit, ever.
func RefundWorkflowID(depositID string) string { return "refund/" + depositID }

// RefundStartOptions are the options the API starts a refund with.
func RefundStartOptions(d domain.Transaction, taskQueue string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{
		ID: RefundWorkflowID(d.ID), TaskQueue: taskQueue,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			AccountIDKey.ValueSet(d.AccountID), ResourceIDKey.ValueSet(d.ID), ResourceTypeKey.ValueSet(domain.TypeRefund),
			StatusKey.ValueSet(domain.StatusPending), AmountKey.ValueSet(float64(d.Amount)/100),
		),
		StaticSummary:                            "PIX refund " + d.Amount.Format() + " of deposit " + d.ID,
		StaticDetails:                            "Account `" + d.AccountID + "`. Signal `" + NoticeSignal + "` with {\"outcome\":\"settled\"|\"failed\"} acts as the processor.",
		Memo:                                     map[string]any{"accountId": d.AccountID, "depositId": d.ID},
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		WorkflowIDReusePolicy:                    enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}
}

// RefundWorkflow drives one refund: requested (debit reserved) → submitted →
// COMPLETED (deposit REVERSED) or FAILED (debit returned).
func RefundWorkflow(ctx workflow.Context, in RefundInput) (string, error) {
	id := in.Deposit.ID
	status, err := ensure(ctx, ActEnsureRefund, in.Deposit)
	if err != nil || status == domain.StatusFailed || status == domain.StatusCompleted {
		return status, err
	}
	actx := moneyActivities(ctx)
	if err := workflow.ExecuteActivity(actx, ActSubmitRefund, id).Get(ctx, nil); err != nil {
		return "", err
	}
	n := awaitSettlement(ctx, in.AutoSettleAfter, false)
	final := domain.StatusCompleted
	if n.Outcome == processor.OutcomeSettled {
		err = workflow.ExecuteActivity(actx, ActCompleteRefund, CompleteInput{ID: id, Notice: n}).Get(ctx, nil)
	} else {
		final = domain.StatusFailed
		err = workflow.ExecuteActivity(actx, ActFailRefund, FailInput{ID: id, Reason: n.Reason}).Get(ctx, nil)
	}
	if err != nil {
		return "", err
	}
	return final, workflow.UpsertTypedSearchAttributes(ctx, StatusKey.ValueSet(final))
}
