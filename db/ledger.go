package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
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
	// Withdraw, when set, names the debit that may spend only withdrawable
	// money: ledger_post refuses it under the balance locks (its rule,
	// ledger_withdrawable, is lockedPart's), so concurrent debits see each
	// other, and the posting fails with domain.ErrInsufficientBalance,
	// its statement aborted (the caller rolls back). The caller needs no
	// lock or check statement of its own.
	Withdraw *Withdrawal
}

// Withdrawal is a debit of Amount from AccountID's available money.
type Withdrawal struct {
	AccountID string
	Amount    money.Cents
}

// ErrUnbalanced means a posting's entries do not sum to zero: a programming error.
var ErrUnbalanced = errors.New("ledger: posting does not balance")

// Post writes p inside tx: the ledger transaction, its entries and the
// balance updates. Zero entries (a zero fee, say) are left out: they move
// nothing. It returns false, and writes nothing, when a posting with
// the same key exists. A debit that would take a non-negative account below
// zero fails with domain.ErrInsufficientBalance and the caller rolls back.
// ledger_post is the only code that changes a balance; Post, WriteTransition
// and InsertPosted are the ways to it.
func Post(ctx context.Context, tx *sqlx.Tx, p Posting) (bool, error) {
	args, accounts, err := postArgs(&p)
	if err != nil {
		return false, err
	}
	var r postResult
	err = hotGet(ctx, tx, &r, `SELECT * FROM ledger_post($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, args...)
	return checkPost(p, accounts, r, err)
}

// postColumns are ledger_post's answer (postResult).
const postColumns = `posted, locked_rows, updated, guard_available, guard_locked`

// postResult is ledger_post's answer.
type postResult struct {
	Posted     bool         `db:"posted"`
	LockedRows int          `db:"locked_rows"`
	Updated    int          `db:"updated"`
	Available  *money.Cents `db:"guard_available"`
	Locked     *money.Cents `db:"guard_locked"`
}

// postArgs leaves out p's zero entries, checks that it balances and makes
// ledger_post's ten parameters (Post, WriteTransition and InsertPosted
// share them); it returns the accounts the posting names.
func postArgs(p *Posting) ([]any, []string, error) {
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
		return nil, nil, fmt.Errorf("%w: %q sums to %d over %d entries", ErrUnbalanced, p.Key, sum, len(p.Entries))
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
	// One round trip whatever the number of entries (ledger_post, in
	// migration 00009): inside a transaction that holds balance locks every
	// round trip is time the other payments of those accounts wait.
	guard, withdraw := "", int64(0)
	if p.Withdraw != nil {
		guard, withdraw = domain.AvailableLedger(p.Withdraw.AccountID), int64(p.Withdraw.Amount)
	}
	return []any{p.Key, p.AccountID, p.TransactionID, p.Kind, p.Description,
		pq.StringArray(accounts), pq.Int64Array(amounts), pq.Array(locks), guard, withdraw}, accounts, nil
}

// checkPost reads ledger_post's answer r (or the statement's error err): a
// debit it refused (more than the withdrawable money, or below zero) is
// domain.ErrInsufficientBalance, an unknown account an error; false means
// the key was posted before.
func checkPost(p Posting, accounts []string, r postResult, err error) (bool, error) {
	if withdrawable, refused := refusedWithdrawal(err); refused && p.Withdraw != nil {
		return false, domain.Insufficient("insufficient balance: %s needed, %s withdrawable", p.Withdraw.Amount, withdrawable)
	}
	if isCheckViolation(err, "ledger_accounts_non_negative") {
		if p.Withdraw != nil {
			return false, domain.Insufficient("insufficient balance: %s needed", p.Withdraw.Amount)
		}
		return false, domain.Insufficient("insufficient balance")
	}
	if err != nil {
		return false, fmt.Errorf("ledger: post %q: %w", p.Key, err)
	}
	if !r.Posted {
		return false, nil
	}
	if r.Updated != r.LockedRows || !allKnown(accounts, r.LockedRows) {
		return false, fmt.Errorf("ledger: posting %q names an unknown ledger account", p.Key)
	}
	if p.Withdraw != nil && (r.Available == nil || r.Locked == nil) {
		return false, fmt.Errorf("ledger: posting %q: no available balance for %s", p.Key, p.Withdraw.AccountID)
	}
	return true, nil
}

// refusedWithdrawal tells whether err is ledger_post refusing a debit of
// more than the withdrawable money (ledger_withdrawable, the rule of
// lockedPart, applied under the balance locks), and how much there was.
func refusedWithdrawal(err error) (money.Cents, bool) {
	var pqErr *pq.Error
	if !errors.As(err, &pqErr) || pqErr.Code != "23514" || pqErr.Constraint != "ledger_withdrawable" {
		return 0, false
	}
	n, perr := strconv.ParseInt(pqErr.Detail, 10, 64)
	if perr != nil {
		return 0, false
	}
	return money.Cents(n), true
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
