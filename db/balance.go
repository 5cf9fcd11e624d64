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
			SELECT sum(amount) AS locked, min(locked_until) AS next_unlock
			FROM ledger_entries
			WHERE ledger_account_id = a.id AND amount > 0 AND locked_until > now()
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
