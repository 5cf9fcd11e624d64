package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
)

const txColumns = `id, account_id, api_key_id, type, status, amount, fee_amount, net_amount, description,
	external_reference, reference_id, end_to_end_id, copy_paste, subaccount_id, payer, recipient, details,
	expires_at, completed_at, created_at, updated_at`

// insertTransactionSQL inserts transactions (named parameters); an id that
// exists writes nothing.
const insertTransactionSQL = `INSERT INTO transactions (` + txColumns + `)
	VALUES (:id, :account_id, :api_key_id, :type, :status, :amount, :fee_amount, :net_amount, :description,
		:external_reference, :reference_id, :end_to_end_id, :copy_paste, :subaccount_id, :payer, :recipient, :details,
		:expires_at, :completed_at, :created_at, :created_at)
	ON CONFLICT (id) DO NOTHING`

// InsertTransaction stores t. It returns false, writing nothing, when a row
// with the same id exists: the caller (a retried activity, or the charge
// workflow's safety net) then knows another writer got there first.
func InsertTransaction(ctx context.Context, tx *sqlx.Tx, t domain.Transaction) (bool, error) {
	n, err := InsertTransactions(ctx, tx, t)
	return n == 1, err
}

// insertTransactionsArgs is insertTransactionSQL for ts, with its
// parameters (empty details stored as {}).
func insertTransactionsArgs(ts []domain.Transaction) (string, []any, error) {
	for i := range ts {
		if !ts[i].Details.Valid {
			ts[i].Details = domain.SomeJSON(domain.Details{})
		}
	}
	query, args, err := sqlx.Named(insertTransactionSQL, ts)
	if err != nil {
		return "", nil, fmt.Errorf("db: insert transaction: %w", err)
	}
	return sqlx.Rebind(sqlx.DOLLAR, query), args, nil
}

// InsertTransactions stores records made together (the two sides of an
// internal transfer) in one statement and reports how many were new; an
// id that exists writes nothing. An externalReference already used by the
// account is a 400 naming the field.
func InsertTransactions(ctx context.Context, tx *sqlx.Tx, ts ...domain.Transaction) (int, error) {
	query, args, err := insertTransactionsArgs(ts)
	if err != nil {
		return 0, err
	}
	res, err := hotExec(ctx, tx, query, args...)
	if isUniqueViolation(err) {
		return 0, domain.Invalid("externalReference", "is already used by another %s of this account", ts[0].Type)
	}
	if err != nil {
		return 0, fmt.Errorf("db: insert transaction: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// GetTransaction loads one of the account's transactions of the given types
// by id or externalReference. Another account's id is simply not found.
func GetTransaction(ctx context.Context, q sqlx.QueryerContext, accountID, idOrRef string, types ...string) (domain.Transaction, error) {
	var t domain.Transaction
	// Two index lookups, not one OR: with an OR, a planner whose statistics
	// are stale (a table that grew since its last ANALYZE) walks the whole
	// account's (account_id, type) range, every row of a big merchant, on
	// each idempotent create (seen in the bench: 100-300 rows per lookup).
	err := hotGet(ctx, q, &t, `
		SELECT `+txColumns+` FROM (
			(SELECT `+txColumns+` FROM transactions WHERE id = $2 AND account_id = $1 AND type = ANY($3))
			UNION ALL
			(SELECT `+txColumns+` FROM transactions WHERE account_id = $1 AND external_reference = $2 AND type = ANY($3))
		) t ORDER BY (id = $2) DESC LIMIT 1`, accountID, idOrRef, stringArray(types))
	if errors.Is(err, sql.ErrNoRows) {
		return t, domain.NotFound("transaction")
	}
	if err != nil {
		return t, fmt.Errorf("db: get transaction: %w", err)
	}
	return t, nil
}

// AccountTransaction loads one of the account's records by its id alone,
// whatever its type (the human pages' detail); another account's is not
// found.
func AccountTransaction(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (domain.Transaction, error) {
	var t domain.Transaction
	err := hotGet(ctx, q, &t, `SELECT `+txColumns+` FROM transactions WHERE id = $1 AND account_id = $2`, id, accountID)
	if errors.Is(err, sql.ErrNoRows) {
		return t, domain.NotFound("transaction")
	}
	if err != nil {
		return t, fmt.Errorf("db: account transaction: %w", err)
	}
	return t, nil
}

// TransactionByID loads a transaction of the given type by id, whatever its
// account: for workflows and operators, never for merchant routes.
func TransactionByID(ctx context.Context, q sqlx.QueryerContext, id, typ string) (domain.Transaction, error) {
	var t domain.Transaction
	err := hotGet(ctx, q, &t, `SELECT `+txColumns+` FROM transactions WHERE id = $1 AND type = $2`, id, typ)
	if errors.Is(err, sql.ErrNoRows) {
		return t, domain.NotFound("transaction")
	}
	if err != nil {
		return t, fmt.Errorf("db: transaction by id: %w", err)
	}
	return t, nil
}

// LockTransaction loads a transaction by id FOR UPDATE inside tx, so that a
// state change and its ledger posting see and write one consistent row.
func LockTransaction(ctx context.Context, tx *sqlx.Tx, id string) (domain.Transaction, error) {
	var t domain.Transaction
	err := hotGet(ctx, tx, &t, `SELECT `+txColumns+` FROM transactions WHERE id = $1 FOR UPDATE`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return t, domain.NotFound("transaction")
	}
	if err != nil {
		return t, fmt.Errorf("db: lock transaction: %w", err)
	}
	return t, nil
}

// updateTransactionSQL is UpdateTransaction's statement, with named arguments.
const updateTransactionSQL = `
	UPDATE transactions SET status = :status, net_amount = :net_amount, reference_id = :reference_id, end_to_end_id = :end_to_end_id, payer = :payer,
		recipient = :recipient, details = :details, completed_at = :completed_at, updated_at = now()
	WHERE id = :id RETURNING ` + txColumns

// UpdateTransaction writes the mutable columns of t (status and what a
// transition fills in: the net amount too, which a crypto deposit paid
// after its expiry credits at its coins' later value) and returns the
// stored row.
func UpdateTransaction(ctx context.Context, tx *sqlx.Tx, t domain.Transaction) (domain.Transaction, error) {
	var out domain.Transaction
	query, args, err := sqlx.Named(updateTransactionSQL, t)
	if err != nil {
		return out, fmt.Errorf("db: update transaction: %w", err)
	}
	if err := hotGet(ctx, tx, &out, sqlx.Rebind(sqlx.DOLLAR, query), args...); err != nil {
		return out, fmt.Errorf("db: update transaction: %w", err)
	}
	return out, nil
}

// transitionSQL are WriteTransition's statements, built once (their text
// is the same for every call, so each is prepared once), by whether they
// post to the ledger and whether they append events. The update's
// parameters come first, then the events' arrays, then ledger_post's.
var transitionSQL, transitionArgs = func() (sqls [2][2]string, n int) {
	update, args, err := sqlx.Named(updateTransactionSQL, domain.Transaction{})
	if err != nil {
		panic(err)
	}
	n = len(args)
	for _, post := range []int{0, 1} {
		for _, events := range []int{0, 1} {
			with, cols, from, next := `WITH u AS (`+sqlx.Rebind(sqlx.DOLLAR, update)+`)`, prefixed("u", txColumns), ` FROM u`, n+1
			order := ""
			if events == 1 {
				with += `, e AS (` + insertEventsSQL(next, "") + ` RETURNING ` + eventColumns + `)`
				cols, from, order, next = cols+`, `+prefixed("e", eventColumns), from+`, e`, ` ORDER BY e.seq`, next+6
			}
			if post == 1 {
				ps := make([]string, 10)
				for i := range ps {
					ps[i] = "$" + strconv.Itoa(next+i)
				}
				// Referenced below, so it runs (a SELECT in WITH runs only
				// when read), once: the function returns one row.
				with += `, p AS (SELECT * FROM ledger_post(` + strings.Join(ps, ", ") + `))`
				cols, from = cols+`, `+prefixed("p", postColumns), from+`, p`
			}
			sqls[post][events] = with + ` SELECT ` + cols + from + order
		}
	}
	return sqls, n
}()

// WriteTransition stores a transition of t in one statement: its mutable
// columns (as UpdateTransaction), its ledger posting when post is not nil
// (through ledger_post and Post's rules: a refused debit is
// domain.ErrInsufficientBalance, a key posted before writes nothing) and
// its events after it, in order. Inside the transaction that holds the
// row's lock, that is one round trip instead of three. It returns the row
// as stored and the events.
func WriteTransition(ctx context.Context, tx *sqlx.Tx, t domain.Transaction, post *Posting, evs ...NewEvent) (domain.Transaction, []domain.Event, error) {
	if post == nil && len(evs) == 0 {
		out, err := UpdateTransaction(ctx, tx, t)
		return out, nil, err
	}
	_, args, err := sqlx.Named(updateTransactionSQL, t)
	if err != nil {
		return domain.Transaction{}, nil, fmt.Errorf("db: update transaction: %w", err)
	}
	if len(args) != transitionArgs {
		return domain.Transaction{}, nil, fmt.Errorf("db: update transaction: %d parameters, want %d", len(args), transitionArgs)
	}
	withEvents, withPost := 0, 0
	if len(evs) > 0 {
		more, err := eventArgs(evs)
		if err != nil {
			return domain.Transaction{}, nil, err
		}
		args, withEvents = append(args, more...), 1
	}
	var accounts []string
	if post != nil {
		var more []any
		if more, accounts, err = postArgs(post); err != nil {
			return domain.Transaction{}, nil, err
		}
		args, withPost = append(args, more...), 1
	}
	var rows []struct {
		T domain.Transaction `db:"u"`
		E domain.Event       `db:"e"`
		P postResult         `db:"p"`
	}
	err = hotSelect(ctx, tx, &rows, transitionSQL[withPost][withEvents], args...)
	if post != nil {
		var r postResult
		if len(rows) > 0 {
			r = rows[0].P
		}
		if _, err = checkPost(*post, accounts, r, err); err != nil {
			return domain.Transaction{}, nil, err
		}
	}
	if err != nil {
		return domain.Transaction{}, nil, fmt.Errorf("db: update transaction: %w", err)
	}
	if want := max(len(evs), 1); len(rows) != want {
		return domain.Transaction{}, nil, fmt.Errorf("db: update transaction %s: %d rows written, want %d", t.ID, len(rows), want)
	}
	var out []domain.Event
	for _, r := range rows[:len(evs)] {
		out = append(out, r.E)
		noteEvent(tx, r.E)
	}
	return rows[0].T, out, nil
}

// PendingCopyPaste returns the BR Code of a charge that is still PENDING;
// a charge past it is a conflict that says its status.
func PendingCopyPaste(ctx context.Context, q sqlx.QueryerContext, id string) (string, error) {
	var row struct {
		Code   string `db:"copy_paste"`
		Status string `db:"status"`
	}
	err := hotGet(ctx, q, &row, `
		SELECT copy_paste, status FROM transactions WHERE id = $1 AND type = $2 AND copy_paste IS NOT NULL`,
		id, domain.TypePixIn)
	if errors.Is(err, sql.ErrNoRows) {
		return "", domain.NotFound("charge")
	}
	if err == nil && row.Status != domain.StatusPending {
		// Whoever holds the QR's URL learns why it no longer shows a code.
		return "", &domain.Error{Kind: domain.ErrConflict, Message: "charge is no longer payable: it is " + row.Status}
	}
	return row.Code, err
}

// FindDeposit loads the account's PIX_IN by id, endToEndId or the caller's
// refundId, locking it when tx is given.
func FindDeposit(ctx context.Context, q sqlx.QueryerContext, accountID, ref string, forUpdate bool) (domain.Transaction, error) {
	var t domain.Transaction
	lock := ""
	if forUpdate {
		lock = " FOR UPDATE"
	}
	// One index lookup per way of naming it (see GetTransaction: an OR walks
	// the merchant's range), the id first; the row is then read, and
	// locked, by its id (FOR UPDATE cannot lock through a UNION).
	err := sqlx.GetContext(ctx, q, &t, `
		SELECT `+txColumns+` FROM transactions WHERE id = (
			SELECT id FROM (
				(SELECT id, 0 AS rank FROM transactions WHERE id = $2 AND account_id = $1 AND type = 'PIX_IN')
				UNION ALL
				(SELECT id, 1 FROM transactions WHERE end_to_end_id = $2 AND account_id = $1 AND type = 'PIX_IN')
				UNION ALL
				(SELECT id, 2 FROM transactions WHERE details->'refund'->>'refundId' = $2 AND details ? 'refund'
					AND account_id = $1 AND type = 'PIX_IN')
			) m ORDER BY rank LIMIT 1)`+lock, accountID, ref)
	if errors.Is(err, sql.ErrNoRows) {
		return t, domain.NotFound("deposit")
	}
	if err != nil {
		return t, fmt.Errorf("db: find deposit: %w", err)
	}
	return t, nil
}
