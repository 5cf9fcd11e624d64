package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/processor"
)

// Recharges are the mobile recharge workflow's activities. A recharge is
// paid at once from withdrawable money (reserved to pending, as a PIX out
// is); the operator's delivery pays it out through the recharge clearing
// account; a cancellation or a failure returns the reserve exactly. The
// spec's event catalog has no recharge events: the steps write none.
type Recharges struct {
	Base
	Processor processor.Recharges
}

// RechargeNoticeInput books an operator's notice about a recharge.
type RechargeNoticeInput struct {
	ID     string
	Notice processor.RechargeNotice
}

// InsertRecharge writes a new recharge and the reserve of its amount from
// withdrawable money; it writes nothing when the row exists already. The
// use case (service.Recharges.Create) calls it in its transaction;
// EnsureRecharge, the workflow's guard, then finds it written.
func InsertRecharge(ctx context.Context, tx *sqlx.Tx, t domain.Transaction) error {
	return insertWithdrawal(ctx, tx, t, rechargeReservePosting(t))
}

// EnsureRecharge is the workflow's first step, a guard (see
// EnsureTransfer): it finds the committed recharge and returns its status;
// short of money, a recharge written here is stored FAILED with nothing
// debited.
func (a *Recharges) EnsureRecharge(ctx context.Context, t domain.Transaction) (string, error) {
	return a.ensureWithdrawal(ctx, t, func(ctx context.Context, tx *sqlx.Tx, t domain.Transaction) error {
		// A workflow's input names no phone (Transaction.Referenced): only
		// an older history's, which does, writes a recharge here.
		if r := t.Details.V.Recharge; r == nil || r.Phone == "" {
			return fmt.Errorf("recharge %s is not stored yet and its workflow input names no phone", t.ID)
		}
		return InsertRecharge(ctx, tx, t)
	})
}

// RechargeStatus is the stored status of a recharge.
func (a *Recharges) RechargeStatus(ctx context.Context, id string) (string, error) {
	t, err := db.TransactionByID(ctx, a.DB, id, domain.TypeMobileRecharge)
	return t.Status, err
}

// SubmitRecharge hands the recharge to the operator and stores its
// reference; the recharge stays PENDING (cancellable) until the operator
// delivers it. A retry submits again: operators are idempotent on our id.
// A cancel racing the submit is decided by the operator: CancelRecharge
// asks it first, and a top-up it withdrew is refused here (the recharge
// then ends CANCELED), one it had is withdrawn by that cancel.
func (a *Recharges) SubmitRecharge(ctx context.Context, id string) error {
	t, err := db.TransactionByID(ctx, a.DB, id, domain.TypeMobileRecharge)
	if err != nil || t.Status != domain.StatusPending {
		return err
	}
	r := t.Details.V.Recharge
	sub, err := a.Processor.Recharge(ctx, processor.RechargeRequest{ID: t.ID, Phone: r.Phone, Operator: r.Operator, Amount: t.Amount})
	if errors.Is(err, processor.ErrRechargeWithdrawn) {
		// The merchant cancelled between the read above and the call: the
		// operator never delivers it, so the recharge is CANCELED with its
		// reserve returned (the cancel use case's own step, which this one
		// finds done or does first).
		_, err = CancelRecharge(ctx, &a.Base, id)
		return err
	}
	if err != nil {
		return err
	}
	_, err = a.transition(ctx, id, func(_ *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status != domain.StatusPending || t.ReferenceID != nil {
			return change{}, nil
		}
		t.ReferenceID = &sub.ReferenceID
		return emit(), nil
	})
	return err
}

// CompleteRecharge books a delivered recharge: the reserve leaves to the
// operator through the recharge clearing account. A recharge no longer
// PENDING (cancelled first: the race's other winner) is left as it is. It
// returns the stored status.
func (a *Recharges) CompleteRecharge(ctx context.Context, in RechargeNoticeInput) (string, error) {
	at := in.Notice.At
	if at.IsZero() {
		at = time.Now().UTC()
	}
	t, err := a.transition(ctx, in.ID, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status != domain.StatusPending {
			return change{}, nil
		}
		if _, err := db.Post(ctx, tx, rechargeCompletePosting(*t)); err != nil {
			return change{}, err
		}
		t.Status, t.CompletedAt = domain.StatusCompleted, domain.TimePtr(at)
		return emit(), nil
	})
	return t.Status, err
}

// FailRecharge returns the reserve of a recharge the operator failed.
func (a *Recharges) FailRecharge(ctx context.Context, in RechargeNoticeInput) (string, error) {
	t, err := a.transition(ctx, in.ID, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status != domain.StatusPending {
			return change{}, nil
		}
		if _, err := db.Post(ctx, tx, rechargeReleasePosting(*t)); err != nil {
			return change{}, err
		}
		t.Status = domain.StatusFailed
		return emit(), nil
	})
	return t.Status, err
}

// CancelRecharge cancels a PENDING recharge and returns its reserve
// exactly, in one database transaction under the recharge's row lock: the
// same lock CompleteRecharge takes, so a cancellation racing the delivery
// has one winner (the other finds the recharge no longer PENDING). A
// recharge cancelled already is answered as it is (a retried cancel);
// any other state is a 400. The cancel use case calls it (no workflow
// step: the merchant's answer is this transition's outcome).
func CancelRecharge(ctx context.Context, b *Base, id string) (domain.Transaction, error) {
	return b.transition(ctx, id, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Type != domain.TypeMobileRecharge {
			return change{}, domain.NotFound("recharge")
		}
		if already, err := mobile.Cancellable(*t); already || err != nil {
			return change{}, err
		}
		if _, err := db.Post(ctx, tx, rechargeReleasePosting(*t)); err != nil {
			return change{}, err
		}
		t.Status = domain.StatusCanceled
		return emit(), nil
	})
}
