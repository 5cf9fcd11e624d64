package service

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// Accounts is the operators' use case over merchant accounts, their keys,
// adjustments and the ledger check (the admin API).
type Accounts struct {
	DB *sqlx.DB
}

// Create makes a merchant account with default features and fees.
func (s *Accounts) Create(ctx context.Context, n domain.NewAccount) (domain.Account, error) {
	return NewAccount(ctx, s.DB, n.Name, n.Email, n.Document)
}

// Get reads one account.
func (s *Accounts) Get(ctx context.Context, id string) (domain.Account, error) {
	return db.GetAccount(ctx, s.DB, id)
}

// List is one page of the accounts, newest first, matching search (the
// id, or part of the name, e-mail or document; "" for all).
func (s *Accounts) List(ctx context.Context, search string, page, pageSize int) ([]domain.Account, int, error) {
	return db.ListAccounts(ctx, s.DB, search, page, pageSize)
}

// Patch applies to the account the change that merge makes of its current
// state: partial features and fees merge onto the stored ones, so the
// caller needs them to build the patch.
func (s *Accounts) Patch(ctx context.Context, id string, merge func(domain.Account) (AccountPatch, error)) (domain.Account, error) {
	acct, err := db.GetAccount(ctx, s.DB, id)
	if err != nil {
		return acct, err
	}
	p, err := merge(acct)
	if err != nil {
		return acct, err
	}
	return db.UpdateAccount(ctx, s.DB, acct.ID, p)
}

// CreateKey issues a key for an existing account and returns it with its
// secret (shown once).
func (s *Accounts) CreateKey(ctx context.Context, accountID string, n domain.NewKey) (domain.APIKey, string, error) {
	acct, err := db.GetAccount(ctx, s.DB, accountID)
	if err != nil {
		return domain.APIKey{}, "", err
	}
	return NewKey(ctx, s.DB, acct.ID, n)
}

// RevokeKey revokes a key; the caller closes its live connections.
func (s *Accounts) RevokeKey(ctx context.Context, id string) (domain.APIKey, error) {
	return db.RevokeKey(ctx, s.DB, id)
}

// Adjust books an operator's adjustment on an existing account (see
// Adjust); idempotencyKey makes a repeated request post once.
func (s *Accounts) Adjust(ctx context.Context, accountID string, n domain.NewAdjustment, idempotencyKey string) (domain.Transaction, error) {
	acct, err := db.GetAccount(ctx, s.DB, accountID)
	if err != nil {
		return domain.Transaction{}, err
	}
	return Adjust(ctx, s.DB, acct.ID, n.Amount, n.Description, idempotencyKey)
}

// VerifyLedger checks the ledger's invariants: one line per violation,
// none when the ledger is exact.
func (s *Accounts) VerifyLedger(ctx context.Context) ([]string, error) {
	return db.VerifyLedger(ctx, s.DB)
}
