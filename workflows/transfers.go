package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// Signals of the transfer and refund workflows.
const (
	// ReviewSignal carries an operator's decision: "approve" or "reject".
	ReviewSignal = "review-decision"
	// NoticeSignal carries a processor notice (settled or failed): a
	// processor.TransferNotice or processor.RefundNotice.
	NoticeSignal = "processor-notice"
)

// Review decisions.
const (
	DecisionApprove = "approve"
	DecisionReject  = "reject"
)

// ReviewTimeout rejects a held transfer no operator decided on.
const ReviewTimeout = 72 * time.Hour

// TransferInput is the transfer workflow's input: the record, so that the
// workflow's guard step can write it if it was not committed.
type TransferInput struct {
	Transfer domain.Transaction
}

// TransferWorkflowID derives the workflow id from the transfer id.
func TransferWorkflowID(id string) string { return "transfer/" + id }

// TransferStart is how the API starts a PIX out's workflow.
func TransferStart(t domain.Transaction) Start {
	return Start{
		ID: TransferWorkflowID(t.ID), AccountID: t.AccountID, ResourceID: t.ID, ResourceType: t.Type, Status: t.Status, Amount: t.Amount,
		Summary: "PIX out " + t.Amount.Format() + " to " + t.Details.V.PixKeyType,
		Details: "Account `" + t.AccountID + "`, transfer `" + t.ID + "`. Signal `" + ReviewSignal +
			"` with \"approve\" or \"reject\" to decide a held transfer; `" + NoticeSignal + "` with {\"outcome\":\"settled\"|\"failed\"} acts as the processor.",
		Memo: map[string]any{"transferId": t.ID, "amount": t.Amount.String()},
	}
}

// TransferWorkflow drives one PIX out: (held for review →) submitted to the
// processor → settled (COMPLETED, recipient filled) or failed (FAILED,
// reserve returned), as the processor's notice says.
func TransferWorkflow(ctx workflow.Context, in TransferInput) (string, error) {
	var a *activities.Transfers
	id := in.Transfer.ID
	var status string
	if err := ensureActivity(ctx, a.EnsureTransfer, in.Transfer, &status); err != nil || status == domain.StatusFailed {
		return status, err
	}
	actx := moneyActivities(ctx)
	fail := func(reason string) (string, error) {
		if err := workflow.ExecuteActivity(actx, a.FailTransfer, activities.FailInput{ID: id, Reason: reason}).Get(ctx, nil); err != nil {
			return "", err
		}
		return domain.StatusFailed, setStatus(ctx, domain.StatusFailed)
	}

	if r := in.Transfer.Details.V.SecurityReview; r != nil && r.Pending {
		decision, _ := awaitSignal(ctx, ReviewSignal, ReviewTimeout, func(d string) bool { return d == DecisionApprove || d == DecisionReject })
		if decision == "" {
			decision = DecisionReject
		}
		if err := workflow.ExecuteActivity(actx, a.DecideTransfer, activities.DecideTransferInput{TransferID: id, Decision: decision}).Get(ctx, nil); err != nil {
			return "", err
		}
		if decision != DecisionApprove {
			return fail("rejected by security review")
		}
	}
	if err := workflow.ExecuteActivity(actx, a.SubmitTransfer, id).Get(ctx, nil); err != nil {
		return "", err
	}
	if err := setStatus(ctx, domain.StatusProcessing); err != nil {
		return "", err
	}
	n, _ := awaitSignal(ctx, NoticeSignal, 0, processor.TransferNotice.Final)
	if n.Outcome != processor.OutcomeSettled {
		return fail(n.Reason)
	}
	if err := workflow.ExecuteActivity(actx, a.CompleteTransfer, activities.CompleteTransferInput{ID: id, Notice: n}).Get(ctx, nil); err != nil {
		return "", err
	}
	return domain.StatusCompleted, setStatus(ctx, domain.StatusCompleted)
}
