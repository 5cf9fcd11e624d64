// Package activities holds the I/O side of Jangada's workflows. Every activity
// is idempotent: Temporal runs it at least once, so each one checks the
// resource's state under a row lock and posts the ledger with a key that a
// retry cannot post twice.
package activities

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/workflows"
)

// Charges implements the charge workflow's activities.
type Charges struct {
	DB        *sqlx.DB
	PublicURL string
	// Published, when set, learns of each committed event at once (the
	// in-process fast path to the event dispatcher); the outbox remains the
	// guarantee.
	Published func(domain.Event)
}

// EnsureCharge creates the charge row and its payment.created event if the
// API did not commit them: a charge never exists without its workflow, nor
// the reverse.
func (a *Charges) EnsureCharge(ctx context.Context, t domain.Transaction) error {
	var ev *domain.Event
	err := db.InTx(ctx, a.DB, func(tx *sqlx.Tx) error {
		inserted, err := db.InsertTransaction(ctx, tx, t)
		if err != nil || !inserted {
			return err
		}
		e, err := db.InsertEvent(ctx, tx, t.AccountID, t.APIKeyID, domain.EventPaymentCreated, t.ID, t.EventData(a.PublicURL))
		ev = &e
		return err
	})
	if err == nil && ev != nil {
		a.publish(*ev)
	}
	return err
}

// SettleCharge books a confirmed deposit: gross from PIX clearing, the fee to
// revenue, the split to the partner and the rest to the merchant, locked for
// 24 h; the charge becomes COMPLETED with its payer and endToEndId.
func (a *Charges) SettleCharge(ctx context.Context, in workflows.SettleInput) (string, error) {
	return a.transition(ctx, in.ChargeID, domain.EventPaymentPaid, func(tx *sqlx.Tx, t *domain.Transaction) error {
		at := in.Notice.At.UTC()
		unlock := at.Add(domain.ReceivedLock)
		t.Status = domain.StatusCompleted
		t.CompletedAt = domain.TimePtr(at)
		e2e := in.Notice.EndToEndID
		t.EndToEndID = &e2e
		if in.Notice.Payer != nil {
			t.Payer = domain.SomeJSON(*in.Notice.Payer)
		}
		merchantNet := t.NetAmount
		entries := []db.Entry{{Account: domain.LedgerPixClearing, Amount: -t.Amount}}
		if split := t.Details.V.Split; split != nil && split.Amount > 0 {
			merchantNet -= split.Amount
			entries = append(entries, db.Entry{Account: domain.AvailableLedger(split.AccountID), Amount: split.Amount, LockedUntil: &unlock})
			if err := a.recordSplit(ctx, tx, *t, at); err != nil {
				return err
			}
		}
		entries = append(entries, db.Entry{Account: domain.AvailableLedger(t.AccountID), Amount: merchantNet, LockedUntil: &unlock})
		if t.FeeAmount > 0 {
			entries = append(entries, db.Entry{Account: domain.LedgerFees, Amount: t.FeeAmount})
		}
		_, err := db.Post(ctx, tx, db.Posting{
			Key: "charge:" + t.ID + ":settle", AccountID: t.AccountID, TransactionID: t.ID,
			Kind: "PIX_IN", Description: "PIX received " + e2e, Entries: service.NonZero(entries...),
		})
		return err
	})
}

// recordSplit writes the partner's SPLIT_IN record, with an id derived from
// the charge so that it exists once whatever happens.
func (a *Charges) recordSplit(ctx context.Context, tx *sqlx.Tx, charge domain.Transaction, at time.Time) error {
	split := charge.Details.V.Split
	rec := domain.Transaction{
		ID:        uuid.NewSHA1(uuid.NameSpaceURL, []byte("split:"+charge.ID)).String(),
		AccountID: split.AccountID, Type: domain.TypeSplitIn, Status: domain.StatusCompleted,
		Amount: split.Amount, NetAmount: split.Amount, Description: "Split of PIX " + charge.ID,
		EndToEndID: charge.EndToEndID, CompletedAt: domain.TimePtr(at), CreatedAt: domain.NewTime(at),
		Details: domain.SomeJSON(domain.Details{FromChargeID: charge.ID}),
	}
	_, err := db.InsertTransaction(ctx, tx, rec)
	return err
}

// FailCharge marks a pending charge FAILED; no money had moved.
func (a *Charges) FailCharge(ctx context.Context, chargeID string) (string, error) {
	return a.transition(ctx, chargeID, domain.EventPaymentFailed, func(_ *sqlx.Tx, t *domain.Transaction) error {
		t.Status = domain.StatusFailed
		return nil
	})
}

// ExpireCharge marks a pending charge CANCELED when its QR expires unpaid.
func (a *Charges) ExpireCharge(ctx context.Context, chargeID string) (string, error) {
	return a.transition(ctx, chargeID, domain.EventPaymentExpired, func(_ *sqlx.Tx, t *domain.Transaction) error {
		t.Status = domain.StatusCanceled
		return nil
	})
}

// transition moves a PENDING charge with apply, then stores it and its event,
// all in one database transaction. A charge that already left PENDING is
// returned as it is: that is a retry of a transition that committed.
func (a *Charges) transition(ctx context.Context, id, event string, apply func(*sqlx.Tx, *domain.Transaction) error) (string, error) {
	var status string
	var ev *domain.Event
	err := db.InTx(ctx, a.DB, func(tx *sqlx.Tx) error {
		t, err := db.LockTransaction(ctx, tx, id)
		if err != nil {
			return err
		}
		if t.Status != domain.StatusPending {
			status = t.Status
			return nil
		}
		if err := apply(tx, &t); err != nil {
			return err
		}
		t, err = db.UpdateTransaction(ctx, tx, t)
		if err != nil {
			return err
		}
		status = t.Status
		e, err := db.InsertEvent(ctx, tx, t.AccountID, t.APIKeyID, event, t.ID, t.EventData(a.PublicURL))
		ev = &e
		return err
	})
	if err == nil && ev != nil {
		a.publish(*ev)
	}
	return status, err
}

func (a *Charges) publish(ev domain.Event) {
	if a.Published != nil {
		a.Published(ev)
	}
}
