package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Entry moves Amount into (positive) or out of (negative) one ledger account.
// LockedUntil marks received money that may not be withdrawn before then.
type Entry struct {
	Account     string
	Amount      money.Cents
	LockedUntil *time.Time
}

// Posting is one balanced business operation. Key is its idempotency key: a
// second Post with the same key posts nothing, so a retried activity is safe.
type Posting struct {
	Key           string
	AccountID     string
	TransactionID string
	Kind          string
	Description   string
	Entries       []Entry
}

// ErrUnbalanced means a posting's entries do not sum to zero: a programming error.
var ErrUnbalanced = errors.New("ledger: posting does not balance")

// Post writes p inside tx: the ledger transaction, its entries and the
// balance updates. It returns false, and writes nothing, when a posting with
// the same key exists. A debit that would take a non-negative account below
// zero fails with domain.ErrInsufficientBalance and the caller rolls back.
// This is the only function that changes a balance.
func Post(ctx context.Context, tx *sqlx.Tx, p Posting) (bool, error) {
	var sum money.Cents
	for _, e := range p.Entries {
		if e.Amount == 0 {
			return false, fmt.Errorf("%w: zero entry on %s", ErrUnbalanced, e.Account)
		}
		sum += e.Amount
	}
	if sum != 0 || len(p.Entries) < 2 {
		return false, fmt.Errorf("%w: %q sums to %d over %d entries", ErrUnbalanced, p.Key, sum, len(p.Entries))
	}
	var ltxID int64
	err := tx.QueryRowxContext(ctx, `
		INSERT INTO ledger_transactions (idempotency_key, account_id, transaction_id, kind, description)
		VALUES ($1, NULLIF($2, ''), NULLIF($3, ''), $4, $5)
		ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
		p.Key, p.AccountID, p.TransactionID, p.Kind, p.Description).Scan(&ltxID)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("ledger: insert transaction: %w", err)
	}
	// Lock balances in a fixed order so that concurrent postings cannot deadlock.
	entries := append([]Entry(nil), p.Entries...)
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Account < entries[j].Account })
	for _, e := range entries {
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO ledger_entries (ledger_transaction_id, ledger_account_id, amount, locked_until)
			VALUES ($1, $2, $3, $4)`, ltxID, e.Account, e.Amount, e.LockedUntil); err != nil {
			return false, fmt.Errorf("ledger: insert entry: %w", err)
		}
		res, err := tx.ExecContext(ctx, `UPDATE ledger_accounts SET balance = balance + $1 WHERE id = $2`, e.Amount, e.Account)
		if isCheckViolation(err, "ledger_accounts_non_negative") {
			return false, domain.Insufficient("insufficient balance")
		}
		if err != nil {
			return false, fmt.Errorf("ledger: update balance: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return false, fmt.Errorf("ledger: unknown ledger account %q", e.Account)
		}
	}
	return true, nil
}

// CreateLedgerAccounts opens the ledger accounts every merchant account owns.
func CreateLedgerAccounts(ctx context.Context, tx *sqlx.Tx, accountID string) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO ledger_accounts (id, account_id, kind) VALUES ($1, $3, 'available'), ($2, $3, 'pending')
		ON CONFLICT (id) DO NOTHING`,
		domain.AvailableLedger(accountID), domain.PendingLedger(accountID), accountID)
	return err
}
