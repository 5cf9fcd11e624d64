package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/money"
)

// BillingRefundInput is a billing refund workflow's input: the refund,
// booked PENDING and committed by the refund use case before the start.
type BillingRefundInput struct {
	BillingID string
	RefundID  string
}

// BillingRefundWorkflowID derives the workflow id from the refund id: one
// workflow per refund, so a second start of it is refused.
func BillingRefundWorkflowID(refundID string) string { return "billing-refund/" + refundID }

// BillingRefundStart is how a billing refund's workflow is started.
func BillingRefundStart(b billing.Billing, refundID string, amount money.Cents) Start {
	return Start{
		ID: BillingRefundWorkflowID(refundID), AccountID: b.AccountID, ResourceID: refundID, ResourceType: billing.TypeBillingRefund,
		OwnerID: b.ID, Status: domain.StatusPending, Amount: amount,
		Summary: "Billing refund " + amount.Format() + " of billing " + b.ID,
		Details: "Account `" + b.AccountID + "`, billing `" + b.ID + "`, refund `" + refundID + "`: asks the processor to return it; " +
			"a refusal fails it and returns the booked money to the merchant.",
		Memo: map[string]any{"billingId": b.ID, "refundId": refundID},
	}
}

var _ = host(BillingRefundWorkflow)

// BillingRefundWorkflow tells the processor of one booked refund: an
// ordinary activity (an outside call, retried by Temporal until the
// processor answers; the processor is idempotent on the refund id) that
// records the answer, COMPLETED or FAILED with the money returned. The
// refund use case waits a little for its result to answer the merchant.
func BillingRefundWorkflow(ctx workflow.Context, in BillingRefundInput) (string, error) {
	var a *activities.Billings
	var status string
	err := workflow.ExecuteActivity(moneyActivities(ctx), a.SubmitBillingRefund,
		activities.BillingRefundRef{BillingID: in.BillingID, RefundID: in.RefundID}).Get(ctx, &status)
	if err != nil {
		return "", err
	}
	return status, setStatus(ctx, status)
}
