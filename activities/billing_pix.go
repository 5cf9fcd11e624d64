package activities

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
)

// OwnerBilling is the charge owner kind of a PIX billing's charge: the
// billing moves in the charge's own transition (RegisterChargeOwner).
const OwnerBilling = "billing"

// BillingChargeSignal is the signal a PIX billing's workflow receives (a
// ChargeMoved) after its charge moved.
const BillingChargeSignal = "charge-moved"

// BillingWorkflowIDOf is the billing workflow's id (workflows.BillingWorkflowID
// says the same; the wake needs it here, below the workflows package).
func BillingWorkflowIDOf(billingID string) string { return "billing/" + billingID }

// A PIX billing has no workflow of its own: its charge's workflow is its
// clock (the charge expires at the end of the due date) and the hook moves
// it, so it needs no wake (one workflow start per PIX billing, not two).
var _ = RegisterChargeOwner(OwnerBilling, ChargeOwnerHook{Moved: pixBillingMoved})

// pixBillingMoved moves a PIX billing with its charge, in the charge's
// transaction. Paid: the billing is RECEIVED (from PENDING, OVERDUE, or
// CANCELED — a payer who paid the QR has paid), its notification fee is
// charged, the customer's payment counted; the charge is its statement line
// (the charge's posting credited the money). Expired (at the end of the
// due date): OVERDUE — a PIX billing's QR is not payable after its due
// date. Failed: FAILED.
func pixBillingMoved(ctx context.Context, tx *sqlx.Tx, charge domain.Transaction, _ string) error {
	_, _, err := lockStep(ctx, tx, charge.Details.V.Owner.ID, billingRecords, func(tx *sqlx.Tx, b *billing.Billing) (change, error) {
		switch charge.Status {
		case domain.StatusCompleted:
			if !b.Payable() && b.Status != billing.BillingCanceled {
				return change{}, nil
			}
			at := charge.CompletedAt.Time
			lock := at.Add(domain.ReceivedLock)
			if b.NotificationFee > 0 {
				if _, err := db.Post(ctx, tx, billingNotificationPosting(*b, charge.ID, lock)); err != nil {
					return change{}, err
				}
			}
			if b.CustomerID != nil {
				if err := db.AddCustomerPayment(ctx, tx, *b.CustomerID, b.Amount); err != nil {
					return change{}, err
				}
			}
			b.Status = billing.BillingReceived
			markPaid(b, at, lock, charge.ID)
		case domain.StatusCanceled:
			if b.Status != billing.BillingPending {
				return change{}, nil
			}
			b.Status = billing.BillingOverdue
		case domain.StatusFailed:
			if !b.Payable() {
				return change{}, nil
			}
			b.Status = billing.BillingFailed
		default:
			return change{}, nil
		}
		return emit(), nil
	})
	return err
}
