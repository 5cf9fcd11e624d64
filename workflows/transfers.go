package workflows

import (
	"encoding/json"
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

// Review decisions (the domain's: domain.ReviewRequest validates them).
const (
	DecisionApprove = domain.DecisionApprove
	DecisionReject  = domain.DecisionReject
)

// ReviewDecision is the payload of ReviewSignal: an operator's decision
// on one held PIX out, naming it (service.Transfers.Review sends it), so a
// sealed "approve" copied from one transfer's history approves no other.
type ReviewDecision struct {
	TransferID string `json:"transferId"`
	Decision   string `json:"decision"`
	// legacy marks the bare JSON string ("approve") that decisions were
	// before they named their transfer: what executions recorded before
	// addressedChange read, and all they read.
	legacy bool
}

// UnmarshalJSON reads either form: {"transferId":…,"decision":…} or the
// bare string of older histories (legacy). Anything else fails to decode
// and the SDK drops the signal.
func (d *ReviewDecision) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*d = ReviewDecision{Decision: s, legacy: true}
		return nil
	}
	type object ReviewDecision // without this method
	var o object
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	*d = ReviewDecision(o)
	return nil
}

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
			"` with {\"transferId\":\"" + t.ID + "\",\"decision\":\"approve\"|\"reject\"} to decide a held transfer; `" + NoticeSignal +
			"` with {\"transferId\":\"" + t.ID + "\",\"outcome\":\"settled\"|\"failed\"} acts as the processor (a payload naming another transfer is ignored).",
		Memo: map[string]any{"transferId": t.ID, "amount": t.Amount.String()},
	}
}

// awaitReview waits for the operator's decision on a withdrawal held for
// security review (a PIX out or a crypto withdrawal: ReviewSignal naming
// it, service.Transfers.Review), rejecting it after ReviewTimeout, and
// records the decision on the record (DecideTransfer). It reports whether
// the withdrawal was approved. addressed is addressedOnly's answer: older
// PIX out executions read bare strings only, as they did; new ones only
// the object naming this withdrawal.
func awaitReview(ctx workflow.Context, addressed bool, id string) (bool, error) {
	var a *activities.Transfers
	valid := func(d ReviewDecision) bool {
		return d.legacy != addressed && (d.Decision == DecisionApprove || d.Decision == DecisionReject)
	}
	d, _ := awaitSignal(ctx, ReviewSignal, ReviewTimeout,
		addressedTo(ctx, addressed, ReviewSignal, id, func(d ReviewDecision) string { return d.TransferID }, valid))
	decision := d.Decision
	if decision == "" {
		decision = DecisionReject
	}
	err := workflow.ExecuteActivity(moneyActivities(ctx), a.DecideTransfer, activities.DecideTransferInput{TransferID: id, Decision: decision}).Get(ctx, nil)
	return decision == DecisionApprove, err
}

var _ = host(TransferWorkflow)

// TransferWorkflow drives one PIX out: (held for review →) submitted to the
// processor → settled (COMPLETED, recipient filled) or failed (FAILED,
// reserve returned), as the processor's notice says.
func TransferWorkflow(ctx workflow.Context, in TransferInput) (string, error) {
	var a *activities.Transfers
	id := in.Transfer.ID
	// Only signals naming this transfer count (see addressedChange).
	addressed := addressedOnly(ctx)
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
		approved, err := awaitReview(ctx, addressed, id)
		if err != nil {
			return "", err
		}
		if !approved {
			return fail("rejected by security review")
		}
	}
	if err := workflow.ExecuteActivity(actx, a.SubmitTransfer, id).Get(ctx, nil); err != nil {
		return "", err
	}
	if err := setStatus(ctx, domain.StatusProcessing); err != nil {
		return "", err
	}
	n, _ := awaitSignal(ctx, NoticeSignal, 0,
		addressedTo(ctx, addressed, NoticeSignal, id, func(n processor.TransferNotice) string { return n.TransferID }, processor.TransferNotice.Final))
	if n.Outcome != processor.OutcomeSettled {
		return fail(n.Reason)
	}
	if err := workflow.ExecuteActivity(actx, a.CompleteTransfer, activities.CompleteTransferInput{ID: id, Notice: n}).Get(ctx, nil); err != nil {
		return "", err
	}
	return domain.StatusCompleted, setStatus(ctx, domain.StatusCompleted)
}
