package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// Transfers are the PIX out workflow's activities.
type Transfers struct {
	Base
	Processor processor.Pix
}

// DecideTransferInput records a security review decision.
type DecideTransferInput struct {
	TransferID string
	Decision   string
}

// CompleteTransferInput books a settled PIX out.
type CompleteTransferInput struct {
	ID     string
	Notice processor.TransferNotice
}

// FailInput fails a PIX out or a refund, returning its reserve.
type FailInput struct {
	ID     string
	Reason string
}

// ReserveTransfer writes a new PIX out, its transfer.created event and the
// reserve of its debit (withdrawable money only). It writes nothing when the
// row exists already. The use case (service.Transfers.Create) calls it in
// its transaction; EnsureTransfer, the workflow's guard, then finds it
// written.
func ReserveTransfer(ctx context.Context, tx *sqlx.Tx, t domain.Transaction, publicURL string) error {
	inserted, err := db.InsertTransaction(ctx, tx, t)
	if err != nil || !inserted {
		return err
	}
	if _, err := db.InsertEvent(ctx, tx, t.AccountID, t.APIKeyID, domain.EventTransferCreated, t.ID, t.EventData(publicURL)); err != nil {
		return err
	}
	// The balance lock comes last, to be held as briefly as possible: the
	// posting takes it and checks the withdrawable money under it. A PIX
	// out with a sub-account pays from the sub-account's money.
	_, err = db.Post(ctx, tx, transferReservePosting(t))
	return err
}

// EnsureTransfer is the workflow's first step, a guard: creates commit the
// transfer before they start its workflow (service/launch.go), so it finds
// the row and writes nothing; it would write the transfer for a workflow
// started before its record committed (histories from before that order).
// Short of money then, the transfer is stored
// as FAILED with nothing debited. It returns the stored status.
func (a *Transfers) EnsureTransfer(ctx context.Context, t domain.Transaction) (string, error) {
	if status, found, err := a.storedStatus(ctx, t); found || err != nil {
		return status, err
	}
	if t.Details.V.PixKey == "" {
		return "", fmt.Errorf("transfer %s is not stored yet and its workflow input names no PIX key", t.ID)
	}
	err := db.InTx(ctx, a.DB, func(tx *sqlx.Tx) error { return ReserveTransfer(ctx, tx, t, a.PublicURL) })
	if errors.Is(err, domain.ErrInsufficientBalance) {
		t.Status = domain.StatusFailed
		if r := t.Details.V.SecurityReview; r != nil { // nothing left to review
			r.Pending = false
		}
		err = db.InTx(ctx, a.DB, func(tx *sqlx.Tx) error {
			inserted, err := db.InsertTransaction(ctx, tx, t)
			if err != nil || !inserted {
				return err
			}
			_, err = db.InsertEvent(ctx, tx, t.AccountID, t.APIKeyID, domain.EventTransferFailed, t.ID, t.EventData(a.PublicURL))
			return err
		})
	}
	if err != nil {
		return "", err
	}
	stored, err := db.TransactionByID(ctx, a.DB, t.ID, domain.TypePixOut)
	return stored.Status, err
}

// DecideTransfer records an operator's review decision on a held
// withdrawal (a PIX out or a crypto withdrawal: the record is found by id,
// whatever its type); the workflow then submits or fails it.
func (a *Transfers) DecideTransfer(ctx context.Context, in DecideTransferInput) error {
	_, err := a.transition(ctx, in.TransferID, func(_ *sqlx.Tx, t *domain.Transaction) (change, error) {
		r := t.Details.V.SecurityReview
		if r == nil || !r.Pending {
			return change{}, nil
		}
		r.Pending, r.Decision, r.DecidedAt = false, in.Decision, domain.TimePtr(time.Now())
		return emit(), nil
	})
	return err
}

// SubmitTransfer hands the PIX out to the processor and marks it PROCESSING
// with the processor's reference. A retry after the processor accepted it
// submits again: processors are idempotent on the transfer id. A transfer
// held for security review is sent only once approved (Base.sendable).
func (a *Transfers) SubmitTransfer(ctx context.Context, id string) error {
	t, send, err := a.sendable(ctx, id)
	if err != nil || !send {
		return err
	}
	d := t.Details.V
	sub, err := a.Processor.SendPix(ctx, processor.PixOutRequest{
		ID: t.ID, Amount: t.NetAmount, PixKey: d.PixKey, PixKeyType: d.PixKeyType, Description: t.Description,
	})
	if err != nil {
		return err
	}
	_, err = a.transition(ctx, id, func(_ *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status != domain.StatusPending {
			return change{}, nil
		}
		t.Status, t.ReferenceID = domain.StatusProcessing, &sub.ReferenceID
		return emit(), nil
	})
	return err
}

// CompleteTransfer books a settled PIX out: the reserve leaves through PIX
// clearing, the fee to revenue; the recipient is filled when the notice
// names one.
func (a *Transfers) CompleteTransfer(ctx context.Context, in CompleteTransferInput) error {
	n := in.Notice
	if n.At.IsZero() { // an operator's signal from the Temporal UI may omit it
		n.At = time.Now().UTC()
	}
	_, err := a.transition(ctx, in.ID, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status == domain.StatusCompleted || t.Status == domain.StatusFailed {
			return change{}, nil
		}
		if _, err := db.Post(ctx, tx, transferSettlePosting(*t, n.EndToEndID)); err != nil {
			return change{}, err
		}
		t.Status, t.CompletedAt = domain.StatusCompleted, domain.TimePtr(n.At)
		if n.EndToEndID != "" {
			t.EndToEndID = &n.EndToEndID
		}
		recipient, err := noticeParty(ctx, tx, t.ID, n.Recipient)
		if err != nil {
			return change{}, err
		}
		if recipient != nil {
			t.Recipient = domain.SomeJSON(*recipient)
		}
		return emit(domain.EventTransferCompleted), nil
	})
	return err
}

// FailTransfer returns the reserve exactly and marks the transfer FAILED.
func (a *Transfers) FailTransfer(ctx context.Context, in FailInput) error {
	_, err := a.transition(ctx, in.ID, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status == domain.StatusCompleted || t.Status == domain.StatusFailed {
			return change{}, nil
		}
		if _, err := db.Post(ctx, tx, transferReleasePosting(*t)); err != nil {
			return change{}, err
		}
		t.Status = domain.StatusFailed
		if r := t.Details.V.SecurityReview; r != nil && r.Pending {
			r.Pending = false
		}
		return emit(domain.EventTransferFailed), nil
	})
	return err
}
