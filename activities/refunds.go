package activities

import (
	"context"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// Refunds are the refund workflow's activities. A refund lives on its
// deposit (the refund block) with a PIX_REFUND statement line beside it.
type Refunds struct {
	Base
	Processor processor.Pix
}

// CompleteRefundInput books a concluded refund.
type CompleteRefundInput struct {
	ID     string
	Notice processor.RefundNotice
}

// RequestRefund posts the refund's reserve, stores the deposit's refund
// block and the PIX_REFUND statement line, and writes refund.requested; it
// assumes the deposit row is locked and writes nothing if the reserve was
// posted already. The use case (service.Refunds.Create) calls it in its
// transaction; EnsureRefund, the workflow's guard, then finds it written.
func RequestRefund(ctx context.Context, tx *sqlx.Tx, d domain.Transaction, publicURL string) error {
	r := d.Details.V.Refund
	// Read (unlocked) before posting, only to say who is short if the
	// posting is refused: after the refusal the transaction is aborted.
	var partner db.Balance
	if r.SplitAmount > 0 {
		var err error
		if partner, err = db.GetBalance(ctx, tx, r.SplitAccountID); err != nil {
			return err
		}
	}
	posted, err := db.Post(ctx, tx, refundReservePosting(d))
	if errors.Is(err, domain.ErrInsufficientBalance) && r.SplitAmount > 0 && partner.Available < r.SplitAmount {
		return domain.Insufficient("the split partner cannot give back its share of %s, so the refund cannot be made", r.SplitAmount)
	}
	if err != nil || !posted {
		return err
	}
	lines := []domain.Transaction{{
		ID: r.StatementID, AccountID: d.AccountID, APIKeyID: d.APIKeyID, Type: domain.TypeRefund, Status: domain.StatusPending,
		Amount: r.DebitNet, FeeAmount: r.TransferFee, NetAmount: d.Amount, Description: "Refund of PIX " + d.ID,
		EndToEndID: d.EndToEndID, CreatedAt: r.RequestedAt, Details: domain.SomeJSON(domain.Details{DepositID: d.ID}),
		// The wallet the refund debits: a sub-account's limits count this line.
		SubaccountID: d.SubaccountID,
	}}
	if r.SplitAmount > 0 {
		lines = append(lines, domain.Transaction{
			ID: r.SplitStatementID, AccountID: r.SplitAccountID, Type: domain.TypeRefund, Status: domain.StatusPending,
			Amount: r.SplitAmount, NetAmount: r.SplitAmount, Description: "Split returned: refund of PIX " + d.ID,
			EndToEndID: d.EndToEndID, CreatedAt: r.RequestedAt, Details: domain.SomeJSON(domain.Details{DepositID: d.ID}),
		})
	}
	for _, line := range lines {
		if _, err := db.InsertTransaction(ctx, tx, line); err != nil {
			return err
		}
	}
	if _, err := db.UpdateTransaction(ctx, tx, d); err != nil {
		return err
	}
	_, err = db.InsertEvent(ctx, tx, d.AccountID, d.APIKeyID, domain.EventRefundRequested, d.ID, d.EventData(publicURL))
	return err
}

// EnsureRefund is the refund workflow's first step, a guard like
// EnsureTransfer: it requests the refund only if no request committed it.
// Short of money then, the refund is
// FAILED with nothing debited. It returns the refund's status.
func (a *Refunds) EnsureRefund(ctx context.Context, want domain.Transaction) (string, error) {
	var status string
	err := db.InTx(ctx, a.DB, func(tx *sqlx.Tx) error {
		d, err := db.LockTransaction(ctx, tx, want.ID)
		if err != nil {
			return err
		}
		if d.Details.V.Refund != nil {
			status = d.Details.V.Refund.Status
			return nil
		}
		d.Details.V.Refund = want.Details.V.Refund
		status = domain.StatusPending
		return RequestRefund(ctx, tx, d, a.PublicURL)
	})
	if errors.Is(err, domain.ErrInsufficientBalance) {
		_, err = a.transition(ctx, want.ID, func(_ *sqlx.Tx, d *domain.Transaction) (change, error) {
			if d.Details.V.Refund != nil {
				return change{}, nil
			}
			d.Details.V.Refund = want.Details.V.Refund
			d.Details.V.Refund.Status = domain.StatusFailed
			return emit(domain.EventRefundFailed), nil
		})
		status = domain.StatusFailed
	}
	return status, err
}

// SubmitRefund hands the refund to the processor and marks it PROCESSING.
// A retry submits again: processors are idempotent on the deposit.
func (a *Refunds) SubmitRefund(ctx context.Context, depositID string) error {
	d, err := db.TransactionByID(ctx, a.DB, depositID, domain.TypePixIn)
	if err != nil {
		return err
	}
	r := d.Details.V.Refund
	if r == nil || r.Status != domain.StatusPending {
		return nil
	}
	e2e := ""
	if d.EndToEndID != nil {
		e2e = *d.EndToEndID
	}
	if _, err := a.Processor.Refund(ctx, processor.RefundRequest{
		DepositID: d.ID, EndToEndID: e2e, RefundID: r.RefundID, Amount: d.Amount, Nature: r.Nature,
	}); err != nil {
		return err
	}
	_, err = a.refund(ctx, depositID, func(tx *sqlx.Tx, d *domain.Transaction, r *domain.RefundBlock) (change, error) {
		if r.Status != domain.StatusPending {
			return change{}, nil
		}
		r.Status = domain.StatusProcessing
		return emit(), setLines(ctx, tx, *r, domain.StatusProcessing, nil)
	})
	return err
}

// CompleteRefund books a concluded refund: the reserve leaves, the payer
// gets the gross back through PIX clearing, the platform absorbs the
// original fee and split; the deposit becomes REVERSED, and its fiscal
// invoice, if any, CANCELLED (invoice.cancelled).
func (a *Refunds) CompleteRefund(ctx context.Context, in CompleteRefundInput) error {
	at := in.Notice.At
	if at.IsZero() { // an operator's signal from the Temporal UI may omit it
		at = time.Now().UTC()
	}
	_, err := a.refund(ctx, in.ID, func(tx *sqlx.Tx, d *domain.Transaction, r *domain.RefundBlock) (change, error) {
		if r.Status == domain.StatusCompleted || r.Status == domain.StatusFailed {
			return change{}, nil
		}
		if _, err := db.Post(ctx, tx, refundSettlePosting(*d)); err != nil {
			return change{}, err
		}
		r.Status, r.CompletedAt = domain.StatusCompleted, domain.TimePtr(at)
		d.Status = domain.StatusReversed
		if err := setLines(ctx, tx, *r, domain.StatusCompleted, r.CompletedAt); err != nil {
			return change{}, err
		}
		// The refunded sale's fiscal invoice is cancelled with it.
		cancelled, err := cancelFiscalInvoice(ctx, tx, *d)
		return emit(domain.EventRefundCompleted, domain.EventPaymentRefunded).with(cancelled), err
	})
	return err
}

// FailRefund returns the reserve exactly; the deposit stays COMPLETED.
func (a *Refunds) FailRefund(ctx context.Context, in FailInput) error {
	_, err := a.refund(ctx, in.ID, func(tx *sqlx.Tx, d *domain.Transaction, r *domain.RefundBlock) (change, error) {
		if r.Status == domain.StatusCompleted || r.Status == domain.StatusFailed {
			return change{}, nil
		}
		if _, err := db.Post(ctx, tx, refundReleasePosting(*d)); err != nil {
			return change{}, err
		}
		r.Status = domain.StatusFailed
		return emit(domain.EventRefundFailed), setLines(ctx, tx, *r, domain.StatusFailed, nil)
	})
	return err
}

// refund is transition for a deposit that has a refund block.
func (a *Refunds) refund(ctx context.Context, depositID string, apply func(*sqlx.Tx, *domain.Transaction, *domain.RefundBlock) (change, error)) (domain.Transaction, error) {
	return a.transition(ctx, depositID, func(tx *sqlx.Tx, d *domain.Transaction) (change, error) {
		if d.Details.V.Refund == nil {
			return change{}, nil
		}
		return apply(tx, d, d.Details.V.Refund)
	})
}

// setLines moves the refund's PIX_REFUND statement lines along with it.
func setLines(ctx context.Context, tx *sqlx.Tx, r domain.RefundBlock, status string, at *domain.Time) error {
	for _, id := range r.Lines() {
		line, err := db.LockTransaction(ctx, tx, id)
		if err != nil {
			return err
		}
		line.Status, line.CompletedAt = status, at
		if _, err := db.UpdateTransaction(ctx, tx, line); err != nil {
			return err
		}
	}
	return nil
}
