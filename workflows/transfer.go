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

// Signals of the transfer (and refund) workflows.
const (
	// ReviewSignal carries an operator's decision: "approve" or "reject".
	ReviewSignal = "review-decision"
	// NoticeSignal carries a processor notice (settled or failed).
	NoticeSignal = "processor-notice"
)

// Review decisions.
const (
	DecisionApprove = "approve"
	DecisionReject  = "reject"
)

// ReviewTimeout rejects a held transfer no operator decided on.
const ReviewTimeout = 72 * time.Hour

// Transfer activity names.
const (
	ActEnsureTransfer   = "EnsureTransfer"
	ActDecideTransfer   = "DecideTransfer"
	ActSubmitTransfer   = "SubmitTransfer"
	ActCompleteTransfer = "CompleteTransfer"
	ActFailTransfer     = "FailTransfer"
)

// TransferInput is the transfer workflow's input: the record (so that the
// workflow can write it if the API died first) and the sandbox settings.
type TransferInput struct {
	Transfer         domain.Transaction
	AutoSettleAfter  time.Duration
	FailAtSettlement bool
}

// DecideInput records a review decision.
type DecideInput struct {
	TransferID string
	Decision   string
}

// CompleteInput settles a transfer or refund.
type CompleteInput struct {
	ID     string
	Notice processor.ChargeNotice
}

// FailInput fails a transfer or refund.
type FailInput struct {
	ID     string
	Reason string
}

// TransferWorkflowID derives the workflow id from the transfer id.
func TransferWorkflowID(id string) string { return "transfer/" + id }

// TransferStartOptions are the options the API starts a transfer with.
func TransferStartOptions(t domain.Transaction, taskQueue string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{
		ID: TransferWorkflowID(t.ID), TaskQueue: taskQueue,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			AccountIDKey.ValueSet(t.AccountID), ResourceIDKey.ValueSet(t.ID), ResourceTypeKey.ValueSet(t.Type),
			StatusKey.ValueSet(t.Status), AmountKey.ValueSet(float64(t.Amount)/100),
		),
		StaticSummary: "PIX out " + t.Amount.Format() + " to " + t.Details.V.PixKeyType,
		StaticDetails: "Account `" + t.AccountID + "`, transfer `" + t.ID + "`. Signal `" + ReviewSignal +
			"` with \"approve\" or \"reject\" to decide a held transfer; `" + NoticeSignal + "` with {\"outcome\":\"settled\"|\"failed\"} acts as the processor.",
		Memo:                                     map[string]any{"accountId": t.AccountID, "transferId": t.ID, "amount": t.Amount.String()},
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		WorkflowIDReusePolicy:                    enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}
}

// moneyActivities are the options of every money-moving activity: retried
// until the database answers, because the money must eventually move.
func moneyActivities(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})
}

// ensure runs the record-writing safety net as a local activity.
func ensure(ctx workflow.Context, activity string, arg any) (string, error) {
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: 10 * time.Minute, StartToCloseTimeout: 10 * time.Second,
	})
	var status string
	err := workflow.ExecuteLocalActivity(lctx, activity, arg).Get(ctx, &status)
	return status, err
}

// TransferWorkflow drives one PIX out: (held for review →) submitted →
// settled (COMPLETED, recipient filled) or failed (FAILED, reserve returned).
func TransferWorkflow(ctx workflow.Context, in TransferInput) (string, error) {
	id := in.Transfer.ID
	status, err := ensure(ctx, ActEnsureTransfer, in.Transfer)
	if err != nil || status == domain.StatusFailed {
		return status, err
	}
	actx := moneyActivities(ctx)
	fail := func(reason string) (string, error) {
		var st string
		if err := workflow.ExecuteActivity(actx, ActFailTransfer, FailInput{ID: id, Reason: reason}).Get(ctx, nil); err != nil {
			return "", err
		}
		st = domain.StatusFailed
		return st, workflow.UpsertTypedSearchAttributes(ctx, StatusKey.ValueSet(st))
	}

	if r := in.Transfer.Details.V.SecurityReview; r != nil && r.Pending {
		decision := awaitDecision(ctx)
		if err := workflow.ExecuteActivity(actx, ActDecideTransfer, DecideInput{TransferID: id, Decision: decision}).Get(ctx, nil); err != nil {
			return "", err
		}
		if decision != DecisionApprove {
			return fail("rejected by security review")
		}
	}
	if err := workflow.ExecuteActivity(actx, ActSubmitTransfer, id).Get(ctx, nil); err != nil {
		return "", err
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx, StatusKey.ValueSet(domain.StatusProcessing)); err != nil {
		return "", err
	}
	n := awaitSettlement(ctx, in.AutoSettleAfter, in.FailAtSettlement)
	if n.Outcome != processor.OutcomeSettled {
		return fail(n.Reason)
	}
	if err := workflow.ExecuteActivity(actx, ActCompleteTransfer, CompleteInput{ID: id, Notice: n}).Get(ctx, nil); err != nil {
		return "", err
	}
	return domain.StatusCompleted, workflow.UpsertTypedSearchAttributes(ctx, StatusKey.ValueSet(domain.StatusCompleted))
}

// awaitDecision waits for an operator's decision; unknown values are
// ignored, and no decision within ReviewTimeout rejects.
func awaitDecision(ctx workflow.Context) string {
	ch := workflow.GetSignalChannel(ctx, ReviewSignal)
	tctx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	timeout := workflow.NewTimer(tctx, ReviewTimeout)
	decision := ""
	for decision == "" {
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(ch, func(c workflow.ReceiveChannel, _ bool) {
			var d string
			c.Receive(ctx, &d)
			if d == DecisionApprove || d == DecisionReject {
				decision = d
			}
		})
		sel.AddFuture(timeout, func(workflow.Future) { decision = DecisionReject })
		sel.Select(ctx)
	}
	return decision
}

// awaitSettlement waits for the processor's notice; in the sandbox with
// auto-settlement a durable timer plays the processor.
func awaitSettlement(ctx workflow.Context, autoAfter time.Duration, failAtSettlement bool) processor.ChargeNotice {
	ch := workflow.GetSignalChannel(ctx, NoticeSignal)
	tctx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	var auto workflow.Future
	if autoAfter > 0 {
		auto = workflow.NewTimer(tctx, autoAfter)
	}
	var n processor.ChargeNotice
	for n.Outcome == "" {
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(ch, func(c workflow.ReceiveChannel, _ bool) {
			var got processor.ChargeNotice
			c.Receive(ctx, &got)
			if got.Outcome == processor.OutcomeSettled || got.Outcome == processor.OutcomeFailed {
				n = got
			}
		})
		if auto != nil {
			sel.AddFuture(auto, func(workflow.Future) {
				n = processor.ChargeNotice{Outcome: processor.OutcomeSettled, At: workflow.Now(ctx)}
				if failAtSettlement {
					n = processor.ChargeNotice{Outcome: processor.OutcomeFailed, At: workflow.Now(ctx), Reason: "recipient institution rejected the transfer"}
				}
			})
		}
		sel.Select(ctx)
	}
	return n
}
