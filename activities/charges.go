package activities

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// Charges are the PIX charge workflow's activities.
type Charges struct {
	Base
}

// SettleChargeInput carries a confirmed deposit to SettleCharge.
type SettleChargeInput struct {
	ChargeID string
	Notice   processor.ChargeNotice
}

// InsertCharge writes a new charge and its payment.created event (and,
// with intent, the intent to start its workflow) in one statement; it
// writes nothing (and returns no event) when the row exists. The API calls
// it on the database, outside any transaction, when it creates the charge
// (one round trip commits all three); EnsureCharge, the guard of charge
// histories recorded before deferred starts, finds the row written.
func InsertCharge(ctx context.Context, q sqlx.ExtContext, t domain.Transaction, publicURL string, intent *db.Intent) (*domain.Event, error) {
	ev, _, err := InsertChargeWithOwner(ctx, q, t, publicURL, intent, nil)
	return ev, err
}

// InsertChargeWithOwner is InsertCharge with the row of the product the charge
// is made for (a PIX billing, a checkout's session) in the same statement
// (db.FirstRecordsWithOwner); it reports whether that row was written.
func InsertChargeWithOwner(ctx context.Context, q sqlx.ExtContext, t domain.Transaction, publicURL string, intent *db.Intent, ownerRow *db.OwnerRow) (*domain.Event, bool, error) {
	return db.FirstRecordsWithOwner(ctx, q, t, db.NewEvent{AccountID: t.AccountID, APIKeyID: t.APIKeyID, Type: domain.EventPaymentCreated,
		ResourceID: t.ID, Data: t.EventData(publicURL)}, intent, ownerRow)
}

// EnsureCharge is the guard of charge histories started before creates
// committed first: it writes the row and its payment.created event if no
// create did (today a no-op: Charges.Create commits them before any start).
// A charge the insert refuses (its sub-account deleted, locked
// or disabled since: db.FirstRecords) is a non-retryable failure: retrying
// cannot make it right, and the charge never existed for the merchant.
func (a *Charges) EnsureCharge(ctx context.Context, t domain.Transaction) error {
	_, err := InsertCharge(ctx, a.DB, t, a.PublicURL, nil)
	return BusinessError(err)
}

// SettleCharge books a confirmed deposit: gross from PIX clearing, the fee to
// revenue, the split to the partner and the rest to the merchant, locked for
// 24 h; the charge becomes COMPLETED with its payer and endToEndId. A charge
// that expired (CANCELED) before its paid notice arrived — paid at the last
// second, the notice a moment behind — is settled all the same, marked
// latePayment: the processor holds the payer's money, and refusing its
// notice would credit it to nobody. The workflow and the Inbox (for a
// charge whose workflow has ended) share it; its posting key makes it once.
func (a *Charges) SettleCharge(ctx context.Context, in SettleChargeInput) (string, error) {
	return a.moveCharge(ctx, in.ChargeID, settleable, domain.EventPaymentPaid, func(tx *sqlx.Tx, t *domain.Transaction) (*db.Posting, error) {
		t.Details.V.LatePayment = t.Status == domain.StatusCanceled
		at := in.Notice.At.UTC()
		if at.IsZero() { // an operator's "paid" signal may omit it (the workflow's Details)
			at = time.Now().UTC()
		}
		unlock := at.Add(domain.ReceivedLock)
		t.Status = domain.StatusCompleted
		t.CompletedAt = domain.TimePtr(at)
		e2e := in.Notice.EndToEndID
		t.EndToEndID = &e2e
		payer, err := noticeParty(ctx, tx, t.ID, in.Notice.Payer)
		if err != nil {
			return nil, err
		}
		if payer != nil {
			t.Payer = domain.SomeJSON(*payer)
		}
		desc := "PIX received " + e2e
		if t.SubaccountID != nil && *t.SubaccountID != "" {
			// The payer's money needs a wallet: a sub-account deleted
			// since the charge was created (a charge from before the
			// delete guards, docs/ledger.md) sends it to the main account.
			live, err := db.ShareSubaccount(ctx, tx, t.AccountID, *t.SubaccountID)
			if err != nil {
				return nil, err
			}
			if !live {
				note := "paid after sub-account " + *t.SubaccountID + " was deleted: credited to the main account"
				stored, err := db.CreditMainInstead(ctx, tx, t.ID, note)
				if err != nil {
					return nil, err
				}
				// The record as stored: its events say where the money went.
				t.SubaccountID, t.Description = nil, stored
				desc += ": " + note
			}
		}
		if split := t.Details.V.Split; split != nil && split.Amount > 0 {
			if _, err := db.InsertTransaction(ctx, tx, splitRecord(*t, at)); err != nil {
				return nil, err
			}
		}
		// Written with the charge's row and event, in one statement.
		p := chargeSettlePosting(*t, desc, unlock)
		return &p, nil
	})
}

// splitRecord is the partner's SPLIT_IN record, with an id derived from the
// charge so that it exists once whatever happens.
func splitRecord(charge domain.Transaction, at time.Time) domain.Transaction {
	split := charge.Details.V.Split
	return domain.Transaction{
		ID:        domain.DerivedID("", "split:"+charge.ID),
		AccountID: split.AccountID, Type: domain.TypeSplitIn, Status: domain.StatusCompleted,
		Amount: split.Amount, NetAmount: split.Amount, Description: "Split of PIX " + charge.ID,
		EndToEndID: charge.EndToEndID, CompletedAt: domain.TimePtr(at), CreatedAt: domain.NewTime(at),
		Details: domain.SomeJSON(domain.Details{FromChargeID: charge.ID}),
	}
}

// FailCharge marks a pending charge FAILED; no money had moved.
func (a *Charges) FailCharge(ctx context.Context, chargeID string) (string, error) {
	return a.pending(ctx, chargeID, domain.EventPaymentFailed, func(_ *sqlx.Tx, t *domain.Transaction) (*db.Posting, error) {
		t.Status = domain.StatusFailed
		return nil, nil
	})
}

// ExpireCharge marks a pending charge CANCELED when its QR expires unpaid.
func (a *Charges) ExpireCharge(ctx context.Context, chargeID string) (string, error) {
	return a.pending(ctx, chargeID, domain.EventPaymentExpired, func(_ *sqlx.Tx, t *domain.Transaction) (*db.Posting, error) {
		t.Status = domain.StatusCanceled
		return nil, nil
	})
}

// pending moves a PENDING charge with apply (which may hand back the
// step's ledger posting, written in the charge's own statement) and
// writes event, and tells the charge's owner, if it has one, in the same transaction (tellOwner);
// a paid charge with emitFiscalInvoice opens its invoice there too. A
// charge that already left PENDING is a retry of a step that committed:
// left as it is.
// It returns the charge's status.
func (a *Charges) pending(ctx context.Context, id, event string, apply func(*sqlx.Tx, *domain.Transaction) (*db.Posting, error)) (string, error) {
	return a.moveCharge(ctx, id, isPending, event, apply)
}

func isPending(status string) bool { return status == domain.StatusPending }

// settleable: a paid notice settles a PENDING charge, or one that expired
// before it arrived (SettleCharge).
func settleable(status string) bool {
	return status == domain.StatusPending || status == domain.StatusCanceled
}

// moveCharge moves a charge whose status movable accepts (pending's rule
// for any set of statuses: a paid notice also settles a charge that
// expired before it arrived).
func (a *Charges) moveCharge(ctx context.Context, id string, movable func(string) bool, event string, apply func(*sqlx.Tx, *domain.Transaction) (*db.Posting, error)) (string, error) {
	t, err := a.transition(ctx, id, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		if !movable(t.Status) {
			return change{}, nil
		}
		post, err := apply(tx, t)
		if err != nil {
			return change{}, err
		}
		// An owner's hook runs on a charge whose money has moved (a PIX
		// billing's fee is taken from the credit): posted now. A charge
		// without one posts in its row's statement.
		if post != nil && t.Details.V.Owner != nil {
			if _, err := db.Post(ctx, tx, *post); err != nil {
				return change{}, err
			}
			post = nil
		}
		// The product that owns the charge (a billing, a checkout…) moves
		// in this same transaction, and so does the fiscal invoice a paid
		// charge asked for (its event after the charge's own).
		if err := tellOwner(ctx, tx, *t, a.PublicURL); err != nil {
			return change{}, err
		}
		opened, err := openFiscalInvoice(ctx, tx, *t)
		return emit(event).with(opened).posting(post), err
	})
	return t.Status, err
}
