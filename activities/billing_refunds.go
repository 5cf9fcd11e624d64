package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

// A billing refund is booked by the refund use case and told to the
// processor by its own workflow (workflows.BillingRefundWorkflow), never
// inside a database transaction: the use case books it PENDING (the
// merchant debited, refundedAmount raised) in one transaction with the
// workflow's intent; SubmitBillingRefund asks the processor and records
// its answer: COMPLETED, or FAILED with the booked money returned
// (docs/ledger.md "Billings").

// BillingRefundInput is one refund of a billing, as the use case decided it.
type BillingRefundInput struct {
	RefundID    string
	RequestID   string
	Amount      money.Cents
	Description string
	At          time.Time
}

// BillingRefundRef names one refund of a billing: the refund workflow's
// input and its activity's.
type BillingRefundRef struct {
	BillingID string
	RefundID  string
}

// BillingRefundLineID is the id of a billing refund's BILLING_REFUND
// statement line, derived from the refund.
func BillingRefundLineID(refundID string) string {
	return domain.DerivedID("", "billing-refund:"+refundID)
}

// RefundBilling books a refund of a paid billing in tx (the refund use
// case's one transaction): under the billing's row lock, and only if no
// other refund moved it since the use case read refundedBefore (a 400
// otherwise: asked again, the refund is checked against the new figures).
// A refund already booked (its id) answers the billing as it is. The
// posting returns the amount to the payer through the method's clearing
// (billingRefundPosting); a BILLING_REFUND statement line shows it. The
// refund is PENDING until SubmitBillingRefund has the processor's answer;
// its money has left the merchant already, so a concurrent refund is
// checked against it.
func RefundBilling(ctx context.Context, tx *sqlx.Tx, billingID string, refundedBefore money.Cents, in BillingRefundInput) (billing.Billing, error) {
	b, _, err := lockStep(ctx, tx, billingID, billingRecords, func(tx *sqlx.Tx, b *billing.Billing) (change, error) {
		if _, ok := b.Refund(in.RefundID); ok {
			return change{}, nil
		}
		if b.RefundedAmount != refundedBefore || !billing.BillingPaid(b.Status) || in.Amount > b.Amount-b.RefundedAmount {
			return change{}, domain.Invalid("amount", "another refund of billing %s went first: %s is left to refund", b.ID, b.Amount-b.RefundedAmount)
		}
		at := in.At.UTC()
		merchant, fees := b.RefundSplit(in.Amount)
		line := domain.Transaction{
			ID: BillingRefundLineID(in.RefundID), AccountID: b.AccountID, APIKeyID: b.APIKeyID,
			Type: billing.TypeBillingRefund, Status: domain.StatusPending, Amount: in.Amount, FeeAmount: -fees, NetAmount: merchant,
			Description: "Refund of billing " + b.ID, ReferenceID: &b.ID, CreatedAt: domain.NewTime(at),
		}
		inserted, err := db.InsertTransaction(ctx, tx, line)
		if err != nil {
			return change{}, err
		}
		if !inserted {
			// The line's id is another refund's (this billing has no
			// refund of that id): booking on would debit the merchant for
			// a refund whose workflow and statement line are another's.
			return change{}, fmt.Errorf("%w: billing refund %s: its statement line %s belongs to another refund", domain.ErrKeyReused, in.RefundID, line.ID)
		}
		if _, err := db.Post(ctx, tx, billingRefundPosting(*b, in.RefundID, line.ID, in.Amount, merchant, fees, refundCreditAt(*b, at))); err != nil {
			return change{}, err
		}
		b.RefundedAmount += in.Amount
		b.Status = billing.BillingPartiallyRefunded
		if b.RefundedAmount == b.Amount {
			b.Status = billing.BillingRefunded
		}
		d := b.Details.V
		d.Refunds = append(d.Refunds, billing.BillingRefund{ID: in.RefundID, Amount: in.Amount, Description: in.Description,
			At: domain.NewTime(at), RequestID: in.RequestID, Status: domain.StatusPending, FeeAmount: fees})
		b.Details = domain.SomeJSON(d)
		return emit(), nil
	})
	return b, err
}

// refundCreditAt is the lock date of the money a refund of b returns: the
// billing's credit date, so that refunding money still locked consumes
// (and a refused refund restores) exactly that locked money.
func refundCreditAt(b billing.Billing, at time.Time) time.Time {
	if b.PaidAt != nil {
		return domain.BillingCreditAt(b.Method, b.PaidAt.Time)
	}
	return at
}

// SubmitBillingRefund asks the processor to return a PENDING refund to the
// payer (idempotent on the refund id) and records its answer; it answers
// the refund's status. It first reads the refund: one no longer PENDING
// (a retry after the answer was recorded) asks nothing. An accepted
// refund is COMPLETED; a refusal (processor.ErrRefundRefused) fails it and
// returns the booked money (FailBillingRefund); any other error is
// transient and Temporal retries the activity, which asks again.
func (a *Billings) SubmitBillingRefund(ctx context.Context, in BillingRefundRef) (string, error) {
	b, err := db.BillingByID(ctx, a.DB, in.BillingID)
	if err != nil {
		return "", err
	}
	r, ok := b.Refund(in.RefundID)
	if !ok {
		return "", fmt.Errorf("billing %s has no refund %s: %w", in.BillingID, in.RefundID, domain.ErrNotFound)
	}
	if r.Status != domain.StatusPending {
		return r.Status, nil
	}
	_, err = a.Processor.RefundBilling(ctx, processor.BillingRefundRequest{BillingID: b.ID, RefundID: r.ID, Method: b.Method, Amount: r.Amount})
	if errors.Is(err, processor.ErrRefundRefused) {
		return FailBillingRefund(ctx, a.DB, in, err.Error())
	}
	if err != nil {
		return "", fmt.Errorf("processor: refund billing: %w", err)
	}
	return a.completeRefund(ctx, in)
}

// completeRefund records that the processor returned a PENDING refund:
// its money had left at booking, so nothing is posted.
func (a *Billings) completeRefund(ctx context.Context, in BillingRefundRef) (string, error) {
	return settleRefund(ctx, a.DB, in, func(_ *sqlx.Tx, b *billing.Billing, r *billing.BillingRefund, line *domain.Transaction) error {
		r.Status, line.Status = domain.StatusCompleted, domain.StatusCompleted
		return nil
	})
}

// FailBillingRefund is the compensation of a refund the processor refused:
// under the billing's row lock, a PENDING refund is marked FAILED with
// reason, its posting is reversed exactly (billingRefundReturnPosting, a
// key of its own), its statement line FAILED, and the billing's
// refundedAmount and status restored (the paid status when nothing else
// is refunded). A refund no longer PENDING moves nothing.
func FailBillingRefund(ctx context.Context, d *sqlx.DB, in BillingRefundRef, reason string) (string, error) {
	return settleRefund(ctx, d, in, func(tx *sqlx.Tx, b *billing.Billing, r *billing.BillingRefund, line *domain.Transaction) error {
		merchant := r.Amount - r.FeeAmount
		if _, err := db.Post(ctx, tx, billingRefundReturnPosting(*b, r.ID, line.ID, r.Amount, merchant, r.FeeAmount, refundCreditAt(*b, r.At.Time))); err != nil {
			return err
		}
		r.Status, r.FailureReason, line.Status = domain.StatusFailed, reason, domain.StatusFailed
		b.RefundedAmount -= r.Amount
		b.Status = billing.BillingPartiallyRefunded
		if b.RefundedAmount == 0 {
			b.Status = b.PaidStatus(time.Now())
		}
		return nil
	})
}

// settleRefund moves a PENDING refund of a billing to its outcome in one
// transaction: the billing's row lock, then its statement line's; apply
// sets the refund's and the line's status (and posts what it returns).
// It answers the refund's status as stored.
func settleRefund(ctx context.Context, d *sqlx.DB, in BillingRefundRef,
	apply func(tx *sqlx.Tx, b *billing.Billing, r *billing.BillingRefund, line *domain.Transaction) error) (string, error) {
	var status string
	_, _, err := runStep(ctx, d, in.BillingID, billingRecords, func(tx *sqlx.Tx, b *billing.Billing) (change, error) {
		det := b.Details.V
		i := refundIndex(det.Refunds, in.RefundID)
		if i < 0 {
			return change{}, fmt.Errorf("billing %s has no refund %s: %w", b.ID, in.RefundID, domain.ErrNotFound)
		}
		refunds := append([]billing.BillingRefund(nil), det.Refunds...)
		r := &refunds[i]
		status = r.Status
		if r.Status != domain.StatusPending {
			return change{}, nil
		}
		line, err := db.LockTransaction(ctx, tx, BillingRefundLineID(r.ID))
		if err != nil {
			return change{}, err
		}
		if err := apply(tx, b, r, &line); err != nil {
			return change{}, err
		}
		line.CompletedAt = domain.TimePtr(time.Now().UTC())
		if _, err := db.UpdateTransaction(ctx, tx, line); err != nil {
			return change{}, err
		}
		det.Refunds = refunds
		b.Details = domain.SomeJSON(det)
		status = r.Status
		return emit(), nil
	})
	return status, err
}

// refundIndex is the position of refund id among refunds, or -1.
func refundIndex(refunds []billing.BillingRefund, id string) int {
	for i, r := range refunds {
		if r.ID == id {
			return i
		}
	}
	return -1
}
