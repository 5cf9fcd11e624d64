package db

import (
	"context"
	"database/sql"
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
	bs, err := GetBalances(ctx, q, accountID)
	if err != nil {
		return Balance{}, err
	}
	b, ok := bs[accountID]
	if !ok {
		return Balance{}, fmt.Errorf("db: balance of %s: %w", accountID, sql.ErrNoRows)
	}
	return b, nil
}

// GetBalances computes the balances of several accounts (or sub-accounts)
// in one query, by the same rule as GetBalance; an unknown id is absent
// from the map.
func GetBalances(ctx context.Context, q sqlx.QueryerContext, accountIDs ...string) (map[string]Balance, error) {
	avail, pend := make([]string, len(accountIDs)), make([]string, len(accountIDs))
	for i, id := range accountIDs {
		avail[i], pend[i] = domain.AvailableLedger(id), domain.PendingLedger(id)
	}
	var rows []struct {
		ID        string      `db:"id"`
		Available money.Cents `db:"available"`
		Pending   money.Cents `db:"pending"`
		Locked    money.Cents `db:"locked"`
		Next      *time.Time  `db:"next_unlock"`
	}
	// The locked money is, when the balance row looked at its locks less
	// than 24 h ago (ledger_post's guard moves locked_as_of), the row's
	// figure (locked_total: its entries locked beyond locked_as_of)
	// corrected by the entries whose lock ended since (or, when a posting
	// that began later moved locked_as_of past this statement's now, those
	// that end in between): a range of the locked index shorter than the
	// account's last 24 h of locked entries, which the sum over every entry
	// still locked reads otherwise. The next unlock is the first lock time
	// ahead whose entries add up to money, read in index order and left at
	// the first.
	err := sqlx.SelectContext(ctx, q, &rows, `
		SELECT s.id, a.balance AS available, p.balance AS pending,
		       CASE WHEN a.locked_as_of > now() - interval '24 hours' THEN a.locked_total
		         - COALESCE((SELECT sum(e.amount) FROM ledger_entries e WHERE e.ledger_account_id = a.id
		                       AND e.locked_until > a.locked_as_of AND e.locked_until <= now()), 0)
		         + COALESCE((SELECT sum(e.amount) FROM ledger_entries e WHERE e.ledger_account_id = a.id
		                       AND e.locked_until > now() AND e.locked_until <= a.locked_as_of), 0)
		       ELSE COALESCE((SELECT sum(e.amount) FROM ledger_entries e WHERE e.ledger_account_id = a.id
		                       AND e.locked_until > now()), 0) END AS locked,
		       (SELECT g.locked_until FROM ledger_entries g WHERE g.ledger_account_id = a.id AND g.locked_until > now()
		        GROUP BY g.locked_until HAVING sum(g.amount) > 0 ORDER BY g.locked_until LIMIT 1) AS next_unlock
		FROM unnest($1::text[], $2::text[], $3::text[]) AS s(id, av, pe)
		JOIN ledger_accounts a ON a.id = s.av
		JOIN ledger_accounts p ON p.id = s.pe`, stringArray(accountIDs), stringArray(avail), stringArray(pend))
	if err != nil {
		return nil, fmt.Errorf("db: balances: %w", err)
	}
	out := make(map[string]Balance, len(rows))
	for _, row := range rows {
		b := Balance{Available: row.Available, Pending: row.Pending}
		b.Locked24h, b.Withdrawable = lockedPart(row.Available, row.Locked)
		if b.Locked24h > 0 && row.Next != nil {
			t := row.Next.UTC()
			b.NextUnlockAt = &t
		}
		out[row.ID] = b
	}
	return out, nil
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

// lockedPart is the one balance rule: of the available money, the part
// received less than 24 h ago is locked (never more than is available),
// and the rest is withdrawable. ledger_post applies it to debits under the
// balance locks as the SQL function ledger_withdrawable (migration 00030);
// TestWithdrawableRuleIsOneRule holds the two equal.
func lockedPart(available, locked money.Cents) (locked24h, withdrawable money.Cents) {
	locked24h = min(locked, max(available, 0))
	return locked24h, max(available-locked24h, 0)
}
