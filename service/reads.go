package service

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// The stored shapes the HTTP layer reads through the use cases. They are
// the db package's own types, named here so that package api, which does
// not import db (its handlers only call use cases), can still name them.
type (
	// ListFilter holds the common list parameters of the spec.
	ListFilter = db.ListFilter
	// Balance is an account's balance per the rules of docs/ledger.md.
	Balance = db.Balance
	// WebhookEndpoint is a stored webhook endpoint (with its secret).
	WebhookEndpoint = db.WebhookEndpoint
	// EndpointScope is which endpoints a caller may see and manage.
	EndpointScope = db.EndpointScope
	// Delivery is one webhook delivery with its attempts.
	Delivery = db.Delivery
	// AccountPatch is an operator's change to an account.
	AccountPatch = db.AccountPatch
	// StoredAnswer is a create's first answer under an Idempotency-Key.
	StoredAnswer = db.StoredAnswer
	// IdempotencyClaim is what a request's Idempotency-Key found.
	IdempotencyClaim = db.Claim
	// ListedKey is an API key with its last use (the dashboard's list).
	ListedKey = db.ListedKey
	// AuditEntry is one line of an account's audit log.
	AuditEntry = db.AuditEntry
)

// Unavailable reports whether err means the database could not be reached
// (refused, reset, shut down): the HTTP layer answers it 503 on every route,
// whichever use case it passed through.
func Unavailable(err error) bool { return db.Unavailable(err) }

// Transactions reads the records of the transactions table for the
// merchant API: charges, PIX outs, refunds, internal transfers and the
// account's statement and balance. Another account's id is simply not
// found.
type Transactions struct {
	DB *sqlx.DB
}

// Get finds the account's record of one of types by its id or its
// externalReference.
func (s *Transactions) Get(ctx context.Context, acct domain.Account, idOrRef string, types ...string) (domain.Transaction, error) {
	return db.GetTransaction(ctx, s.DB, acct.ID, idOrRef, types...)
}

// List is one page of the account's records that f selects.
func (s *Transactions) List(ctx context.Context, acct domain.Account, f ListFilter) ([]domain.Transaction, int, error) {
	return db.ListTransactions(ctx, s.DB, acct.ID, f)
}

// Deposit finds the account's received PIX by its id, its endToEndId or
// the refundId of its refund.
func (s *Transactions) Deposit(ctx context.Context, acct domain.Account, ref string) (domain.Transaction, error) {
	return db.FindDeposit(ctx, s.DB, acct.ID, ref, false)
}

// Refund is Deposit for a deposit that has a refund: one without is not
// found.
func (s *Transactions) Refund(ctx context.Context, acct domain.Account, ref string) (domain.Transaction, error) {
	d, err := s.Deposit(ctx, acct, ref)
	if err == nil && d.Details.V.Refund == nil {
		err = domain.NotFound("refund")
	}
	return d, err
}

// Balance is the account's balance now.
func (s *Transactions) Balance(ctx context.Context, acct domain.Account) (Balance, error) {
	return db.GetBalance(ctx, s.DB, acct.ID)
}

// PendingCopyPaste is the BR Code of a charge still PENDING, whatever its
// account: the public QR route serves it to whoever holds the charge's
// unguessable id.
func (s *Transactions) PendingCopyPaste(ctx context.Context, chargeID string) (string, error) {
	return db.PendingCopyPaste(ctx, s.DB, chargeID)
}
