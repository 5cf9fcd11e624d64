package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

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
	// Guard, when set, runs after the posting's balances are locked and
	// before any entry is written; its error aborts the posting (the
	// caller rolls back). It is where a debit checks what may be spent
	// (RequireWithdrawable): under the lock, in a statement of its own,
	// so it sees every posting committed before the lock was granted. The
	// caller needs no lock statement of its own: one round trip fewer
	// while the locks are held.
	Guard func(ctx context.Context, tx *sqlx.Tx) error
}

// ErrUnbalanced means a posting's entries do not sum to zero: a programming error.
var ErrUnbalanced = errors.New("ledger: posting does not balance")

// Post writes p inside tx: the ledger transaction, its entries and the
// balance updates. Zero entries (a zero fee, say) are left out: they move
// nothing. It returns false, and writes nothing, when a posting with
// the same key exists. A debit that would take a non-negative account below
// zero fails with domain.ErrInsufficientBalance and the caller rolls back.
// This is the only function that changes a balance.
func Post(ctx context.Context, tx *sqlx.Tx, p Posting) (bool, error) {
	var sum money.Cents
	moving := make([]Entry, 0, len(p.Entries))
	for _, e := range p.Entries {
		if e.Amount != 0 {
			moving = append(moving, e)
			sum += e.Amount
		}
	}
	p.Entries = moving
	if sum != 0 || len(p.Entries) < 2 {
		return false, fmt.Errorf("%w: %q sums to %d over %d entries", ErrUnbalanced, p.Key, sum, len(p.Entries))
	}
	accounts := make([]string, len(p.Entries))
	amounts := make([]int64, len(p.Entries))
	locks := make([]sql.NullTime, len(p.Entries))
	for i, e := range p.Entries {
		accounts[i], amounts[i] = e.Account, int64(e.Amount)
		if e.LockedUntil != nil {
			locks[i] = sql.NullTime{Time: *e.LockedUntil, Valid: true}
		}
	}
	// Two statements whatever the number of entries, because inside a
	// transaction that holds balance locks every round trip is time the
	// other payments of those accounts wait:
	//  1. insert the ledger transaction and, only if it is new, lock its
	//     balances in id order (so concurrent postings cannot deadlock);
	//     a posting already made returns no row and locks nothing;
	//  2. insert the entries and apply their deltas to the rows locked by 1
	//     (the CHECK constraint refuses an overdraft).
	var head struct {
		ID       int64 `db:"id"`
		Distinct int   `db:"distinct"`
	}
	err := tx.GetContext(ctx, &head, `
		WITH t AS (
			INSERT INTO ledger_transactions (idempotency_key, account_id, transaction_id, kind, description)
			VALUES ($1, NULLIF($2, ''), NULLIF($3, ''), $4, $5)
			ON CONFLICT (idempotency_key) DO NOTHING RETURNING id)
		SELECT t.id, (SELECT count(*) FROM (SELECT id FROM ledger_accounts WHERE id = ANY($6) ORDER BY id FOR UPDATE) l) AS distinct
		FROM t`,
		p.Key, p.AccountID, p.TransactionID, p.Kind, p.Description, pq.StringArray(accounts))
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("ledger: insert transaction: %w", err)
	}
	if p.Guard != nil {
		if err := p.Guard(ctx, tx); err != nil {
			return false, err
		}
	}
	res, err := tx.ExecContext(ctx, `
		WITH e AS (
			INSERT INTO ledger_entries (ledger_transaction_id, ledger_account_id, amount, locked_until)
			SELECT $1, a, m, l FROM unnest($2::text[], $3::bigint[], $4::timestamptz[]) AS u(a, m, l)
			RETURNING ledger_account_id, amount)
		UPDATE ledger_accounts la SET balance = la.balance + d.delta
		FROM (SELECT ledger_account_id AS a, sum(amount) AS delta FROM e GROUP BY ledger_account_id) d
		WHERE la.id = d.a`, head.ID, pq.StringArray(accounts), pq.Int64Array(amounts), pq.Array(locks))
	if isCheckViolation(err, "ledger_accounts_non_negative") {
		return false, domain.Insufficient("insufficient balance")
	}
	if err != nil {
		return false, fmt.Errorf("ledger: post entries: %w", err)
	}
	if n, _ := res.RowsAffected(); int(n) != head.Distinct || !allKnown(accounts, head.Distinct) {
		return false, fmt.Errorf("ledger: posting %q names an unknown ledger account", p.Key)
	}
	return true, nil
}

// allKnown reports whether every account named was found (distinct rows locked).
func allKnown(accounts []string, found int) bool {
	seen := map[string]bool{}
	for _, a := range accounts {
		seen[a] = true
	}
	return len(seen) == found
}

// CreateLedgerAccounts opens the ledger accounts every merchant account owns.
func CreateLedgerAccounts(ctx context.Context, tx *sqlx.Tx, accountID string) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO ledger_accounts (id, account_id, kind) VALUES ($1, $3, 'available'), ($2, $3, 'pending')
		ON CONFLICT (id) DO NOTHING`,
		domain.AvailableLedger(accountID), domain.PendingLedger(accountID), accountID)
	return err
}
