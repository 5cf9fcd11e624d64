package service

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// Internal moves money between accounts (internal transfers).
type Internal struct {
	DB        *sqlx.DB
	PublicURL string
	// RecipientTTL bounds how long a recipient found by e-mail is kept
	// (JANGADA_KEY_CACHE_TTL, as resolved keys; 0 reads it each time): any
	// change of an account drops them at once.
	RecipientTTL time.Duration
	// Ledger, when set, commits the transfer with the others this process
	// posts at the same time (group commit); db.InsertPosted alone otherwise.
	Ledger     *db.GroupCommit
	recipients recipients
}

// Create moves money between two Jangada accounts by the recipient's
// e-mail. It settles at once in one statement that commits on its own (no
// fee, nothing to wait for, so no workflow; db.InsertPosted): the sender's
// OUT record, the receiver's IN record (linked by pairId), both events and
// the posting, whose balance locks are taken last. It pays from
// withdrawable money. Under an Idempotency-Key every id (both records, the
// pair, so the posting's key) is derived from the account and the key, and
// a retry finds the transfer its first attempt made before anything else;
// so does a repeated externalReference. Either, reused for another amount
// or recipient, is a 400. It returns the sender's OUT record.
func (s *Internal) Create(ctx context.Context, acct domain.Account, key domain.APIKey, in domain.NewInternal) (domain.Transaction, error) {
	d, publicURL := s.DB, s.PublicURL
	outID := newID("", acct.ID, "internal", in.IdempotencyKey)
	same := func(t domain.Transaction) bool {
		return t.Amount == in.Amount && strings.EqualFold(t.Details.V.RecipientEmail, in.RecipientEmail)
	}
	if t, found, err := earlierMove(ctx, d, acct.ID, outID, in.IdempotencyKey, in.ExternalReference, domain.TypeInternalOut, same); found || err != nil {
		return t, err
	}
	to, err := s.recipients.byEmail(ctx, d, in.RecipientEmail, s.RecipientTTL)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Transaction{}, domain.Invalid("recipientEmail", "is not the e-mail of a Jangada account")
	}
	if err != nil {
		return domain.Transaction{}, err
	}
	if to.ID == acct.ID {
		return domain.Transaction{}, domain.Invalid("recipientEmail", "is this account's own e-mail: transfers to yourself are not allowed")
	}
	now := domain.NewTime(time.Now())
	pair, inID := domain.ChildID("", outID, "internal-pair:"+outID), domain.ChildID("", outID, "internal-in:"+outID)
	out := domain.Transaction{
		ID: outID, AccountID: acct.ID, APIKeyID: &key.ID, Type: domain.TypeInternalOut,
		Status: domain.StatusCompleted, Amount: in.Amount, NetAmount: in.Amount, Description: in.Description,
		ExternalReference: in.ExternalReference, CompletedAt: &now, CreatedAt: now,
		Details: domain.SomeJSON(domain.Details{PairID: pair, RecipientEmail: to.Email, RecipientName: to.Name, CounterpartyID: to.ID}),
	}
	inRec := domain.Transaction{
		ID: inID, AccountID: to.ID, Type: domain.TypeInternalIn,
		Status: domain.StatusCompleted, Amount: in.Amount, NetAmount: in.Amount, Description: in.Description,
		CompletedAt: &now, CreatedAt: now,
		Details: domain.SomeJSON(domain.Details{PairID: pair, CounterpartyName: acct.Name, CounterpartyID: acct.ID}),
	}
	// The receiver's event belongs to its account, not to the sender's key.
	// Both balances are locked in id order by the posting (so that A→B and
	// B→A at the same time cannot deadlock); the sender's withdrawable
	// money is checked under that lock.
	n, err := s.insertPosted(ctx, []domain.Transaction{out, inRec}, activities.InternalTransferPosting(out),
		db.NewEvent{AccountID: acct.ID, APIKeyID: &key.ID, Type: domain.EventInternalCompleted, ResourceID: out.ID, Data: out.EventData(publicURL)},
		db.NewEvent{AccountID: to.ID, Type: domain.EventInternalReceived, ResourceID: inRec.ID, Data: inRec.EventData(publicURL)},
	)
	if err == nil && n == 0 {
		err = errReplay // a concurrent attempt of this request committed it
	}
	if errors.Is(err, errReplay) || errors.Is(err, domain.ErrInvalid) {
		// A concurrent attempt of this request (its id, or its reference
		// by the unique index) got there first: answer with its transfer.
		if t, found, ferr := earlierMove(ctx, d, acct.ID, outID, in.IdempotencyKey, in.ExternalReference, domain.TypeInternalOut, same); found || ferr != nil {
			return t, ferr
		}
	}
	if err != nil {
		return domain.Transaction{}, err
	}
	return out, nil
}

// insertPosted writes the move through the group commit when there is one.
func (s *Internal) insertPosted(ctx context.Context, ts []domain.Transaction, p db.Posting, evs ...db.NewEvent) (int, error) {
	if s.Ledger != nil {
		return s.Ledger.InsertPosted(ctx, ts, p, evs...)
	}
	return db.InsertPosted(ctx, s.DB, ts, p, evs...)
}
