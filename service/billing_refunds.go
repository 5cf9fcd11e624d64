package service

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/workflows"
)

// LaunchBillingRefund is a billing refund's workflow-start kind
// (workflow_launches.kind); its resource is the refund id.
const LaunchBillingRefund = "billing-refund"

// The sweeper rebuilds a billing refund's start from its statement line
// (whose id is derived from the refund and whose reference is the billing)
// and the billing.
var _ = registerLaunch(LaunchBillingRefund, func(ctx context.Context, q sqlx.QueryerContext, refundID string) (launch, error) {
	line, err := db.TransactionByID(ctx, q, activities.BillingRefundLineID(refundID), billing.TypeBillingRefund)
	if err != nil {
		return launch{}, err
	}
	if line.ReferenceID == nil {
		return launch{}, fmt.Errorf("%w: billing refund %s has no billing", domain.ErrNotFound, refundID)
	}
	b, err := db.BillingByID(ctx, q, *line.ReferenceID)
	return billingRefundLaunch(b, refundID, line.Amount), err
})

// billingRefundLaunch is a billing refund's workflow start, for the refund
// use case and the sweeper.
func billingRefundLaunch(b billing.Billing, refundID string, amount money.Cents) launch {
	return launch{LaunchBillingRefund, refundID, workflows.BillingRefundStart(b, refundID, amount),
		workflows.BillingRefundWorkflow, workflows.BillingRefundInput{BillingID: b.ID, RefundID: refundID}}
}

// BillingRefundWait bounds how long a refund request waits for the
// processor's answer (the refund workflow's result) before it answers with
// the refund still PENDING.
const BillingRefundWait = 5 * time.Second

// Refund returns money of a paid billing to its payer: the whole of what is
// left (REFUNDED) or part of it (PARTIALLY_REFUNDED; several partial
// refunds up to the amount paid). More than what is left is a 400 and
// moves nothing.
//
// In one transaction under the billing's row lock: the same request asked
// again (its Idempotency-Key) finds its refund first; otherwise the refund
// is checked and booked PENDING (the merchant debited: a balance that
// cannot pay it refuses it before anything is asked of the processor),
// and the intent of its workflow recorded. A concurrent refund waits for
// the lock and is checked against what this one booked, so the processor
// is never asked to return more than was paid. After the commit the
// refund's workflow asks the processor (workflows.BillingRefundWorkflow:
// no transaction is open across that call) and the request waits for its
// answer, at most BillingRefundWait: accepted, it answers the billing with
// the refund COMPLETED; refused, the workflow has returned the money and
// the request answers a 400 saying so (the billing as it was before);
// not known in time, the billing with the refund PENDING (its outcome is
// then seen on the billing: refunds[].status).
func (s *Billings) Refund(ctx context.Context, acct domain.Account, in billing.NewBillingRefund) (billing.Billing, error) {
	b, err := db.GetBilling(ctx, s.DB, acct.ID, in.ID)
	if err != nil {
		return b, err
	}
	// The refund's id names the billing it returns: under one key, a
	// refund of another billing is another refund. legacyID is the id a
	// refund asked before ids named their billing carries; it is only
	// looked for among this billing's own refunds.
	requestID, legacyID := "", ""
	if in.IdempotencyKey != "" {
		requestID = newID("", acct.ID, "billing-refund", in.IdempotencyKey, b.ID)
		legacyID = newID("", acct.ID, "billing-refund", in.IdempotencyKey)
	}
	var refund billing.BillingRefund
	booked := false
	err = db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		// A PIX billing's payment is its charge's deposit: its row is locked
		// first, in the order a MED opening takes them (the deposit, then
		// its billing), so a refund and a MED cannot both go ahead.
		var deposit *domain.Transaction
		if b.Method == domain.MethodPix && b.ChargeID != nil {
			d, err := db.LockTransaction(ctx, tx, *b.ChargeID)
			if err != nil {
				return err
			}
			deposit = &d
		}
		locked, err := db.LockBilling(ctx, tx, b.ID)
		if err != nil {
			return err
		}
		b = locked
		for _, r := range locked.Details.V.Refunds {
			if requestID != "" && (r.RequestID == requestID || r.RequestID == legacyID) {
				refund = r
				return ownsKey(ctx, r.At.Time)
			}
		}
		if deposit != nil {
			// The dispute may return the payer's money too: a refund now
			// would repay them twice (the rule of PIX refunds).
			if err := medRefusesRefund(ctx, tx, *deposit); err != nil {
				return err
			}
		}
		amount, err := refundable(locked, in.Amount)
		if err != nil {
			return err
		}
		refundID := requestID
		if refundID == "" { // unique: the count of refunds grows with each
			refundID = domain.DerivedID("", fmt.Sprintf("billing-refund:%s:%d:%d:%d", b.ID, len(locked.Details.V.Refunds), locked.RefundedAmount, amount))
		}
		out, err := activities.RefundBilling(ctx, tx, b.ID, locked.RefundedAmount, activities.BillingRefundInput{
			RefundID: refundID, RequestID: requestID, Amount: amount, Description: in.Description, At: s.now()})
		if err != nil {
			return err
		}
		b, refund, booked = out, billing.BillingRefund{ID: refundID, Amount: amount, Status: domain.StatusPending}, true
		return recordIntent(ctx, tx, billingRefundLaunch(out, refundID, amount))
	})
	if err != nil {
		return b, err
	}
	if booked {
		launchCommitted(ctx, s.DB, s.Temporal, s.TaskQueue, billingRefundLaunch(b, refund.ID, refund.Amount))
	}
	return s.refundAnswer(ctx, acct, b, refund)
}

// refundAnswer is the answer to a refund request: it waits (at most
// BillingRefundWait) for a PENDING refund's workflow to record the
// processor's answer, then reads the billing: a FAILED refund is a 400
// (the processor refused it; its money is back), any other the billing.
func (s *Billings) refundAnswer(ctx context.Context, acct domain.Account, b billing.Billing, refund billing.BillingRefund) (billing.Billing, error) {
	if refund.Status != domain.StatusPending {
		return refundOutcome(b, refund)
	}
	wctx, cancel := context.WithTimeout(ctx, BillingRefundWait)
	var status string
	err := s.Temporal.GetWorkflow(wctx, workflows.BillingRefundWorkflowID(refund.ID), "").Get(wctx, &status)
	cancel()
	if err != nil && ctx.Err() == nil {
		// Not started yet (the sweeper will), slow, or Temporal away: the
		// refund stands, PENDING; the billing says so.
		slog.Info("billing refund answered before the processor", "billing", b.ID, "refund", refund.ID, "error", err)
	}
	got, err := db.GetBilling(ctx, s.DB, acct.ID, b.ID)
	if err != nil {
		return b, err
	}
	r, ok := got.Refund(refund.ID)
	if !ok {
		return got, fmt.Errorf("billing %s: refund %s not found", b.ID, refund.ID)
	}
	return refundOutcome(got, r)
}

// refundOutcome answers b for its refund r, or the processor's refusal.
func refundOutcome(b billing.Billing, r billing.BillingRefund) (billing.Billing, error) {
	if r.Status == domain.StatusFailed {
		return b, domain.Invalidf("the processor refused refund %s of billing %s (%s): nothing was refunded; the billing is %s with %s refunded",
			r.ID, b.ID, r.FailureReason, b.Status, b.RefundedAmount)
	}
	return b, nil
}

// refundable is the amount a refund of asked (0: what is left) returns.
func refundable(b billing.Billing, asked money.Cents) (money.Cents, error) {
	if !billing.BillingPaid(b.Status) {
		return 0, domain.Invalid("id", "billing %s is %s: only a paid billing can be refunded", b.ID, b.Status)
	}
	left := b.Amount - b.RefundedAmount
	if asked == 0 {
		return left, nil
	}
	if asked > left {
		return 0, domain.Invalid("amount", "must not exceed what is left to refund, %s", left)
	}
	return asked, nil
}
