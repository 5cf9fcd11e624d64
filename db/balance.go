package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Balance is an account's balance per the rules of docs/ledger.md.
type Balance struct {
	Available    money.Cents
	Pending      money.Cents
	Withdrawable money.Cents
	Locked24h    money.Cents
	NextUnlockAt *time.Time
}

// GetBalance computes the balance of accountID at the database's now().
func GetBalance(ctx context.Context, q sqlx.QueryerContext, accountID string) (Balance, error) {
	var row struct {
		Available money.Cents `db:"available"`
		Pending   money.Cents `db:"pending"`
		Locked    money.Cents `db:"locked"`
		Next      *time.Time  `db:"next_unlock"`
	}
	err := sqlx.GetContext(ctx, q, &row, `
		SELECT a.balance AS available, p.balance AS pending,
		       COALESCE(l.locked, 0) AS locked, l.next_unlock
		FROM ledger_accounts a
		JOIN ledger_accounts p ON p.id = $2
		LEFT JOIN LATERAL (
			SELECT sum(s) AS locked, min(locked_until) FILTER (WHERE s > 0) AS next_unlock
			FROM (SELECT locked_until, sum(amount) AS s FROM ledger_entries
			      WHERE ledger_account_id = a.id AND locked_until > now() GROUP BY locked_until) g
		) l ON true
		WHERE a.id = $1`, domain.AvailableLedger(accountID), domain.PendingLedger(accountID))
	if err != nil {
		return Balance{}, fmt.Errorf("db: balance of %s: %w", accountID, err)
	}
	b := Balance{Available: row.Available, Pending: row.Pending, Locked24h: min(row.Locked, max(row.Available, 0))}
	b.Withdrawable = max(row.Available-b.Locked24h, 0)
	if b.Locked24h > 0 && row.Next != nil {
		t := row.Next.UTC()
		b.NextUnlockAt = &t
	}
	return b, nil
}

// LockLedgerAccounts takes row locks on the given ledger accounts in id
// order, the same order Post updates them in, so that operations touching
// several accounts cannot deadlock.
func LockLedgerAccounts(ctx context.Context, tx *sqlx.Tx, ids ...string) error {
	var locked []string
	if err := tx.SelectContext(ctx, &locked, `SELECT id FROM ledger_accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE`, stringArray(ids)); err != nil {
		return fmt.Errorf("db: lock ledger accounts: %w", err)
	}
	if len(locked) != len(ids) {
		return fmt.Errorf("db: lock ledger accounts: found %d of %d", len(locked), len(ids))
	}
	return nil
}

// RequireWithdrawable fails with an insufficient-balance error unless the
// account can pay amount from withdrawable money. Call it after locking the
// account's available ledger row, so that concurrent debits see each other.
func RequireWithdrawable(ctx context.Context, tx *sqlx.Tx, accountID string, amount money.Cents) error {
	b, err := GetBalance(ctx, tx, accountID)
	if err != nil {
		return err
	}
	if b.Withdrawable < amount {
		return domain.Insufficient("insufficient balance: %s needed, %s withdrawable", amount, b.Withdrawable)
	}
	return nil
}
