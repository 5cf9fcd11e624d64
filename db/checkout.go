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
	"github.com/jangada/jangada/domain/checkout"
)

const sessionColumns = `id, account_id, link_id, api_key_id, status, method, original_amount, discount_amount, amount,
	coupon_id, coupon_code, to_jsonb(product_ids) AS product_ids_json, payer, customer_id, transaction_id,
	external_reference, delivery, expires_at, paid_at, created_at, updated_at,
	(coupon_id IS NOT NULL AND EXISTS (SELECT 1 FROM coupon_uses u
		WHERE u.coupon_id = checkout_sessions.coupon_id AND u.session_id = checkout_sessions.id)) AS coupon_counted`

// SessionHoldGrace is how long after its expiry an OPEN session still holds
// its coupon use and product lines: a payment notice that arrived just
// before the expiry may settle a little after it (a busy worker), and the
// line it was sold must still be there.
const SessionHoldGrace = 2 * time.Minute

// insertSessionSQL writes a new OPEN session; an id that exists writes nothing.
const insertSessionSQL = `
		INSERT INTO checkout_sessions (id, account_id, link_id, api_key_id, status, method, original_amount,
			discount_amount, amount, coupon_id, coupon_code, product_ids, payer, transaction_id, external_reference, expires_at,
			created_at, updated_at)
		VALUES ($1, $2, $3, $4, 'OPEN', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)
		ON CONFLICT (id) DO NOTHING`

// sessionBesideSQL is insertSessionSQL beside its charge (SessionRow).
var sessionBesideSQL = besideSQL(insertSessionSQL)

// sessionArgs are insertSessionSQL's parameters.
func sessionArgs(s checkout.CheckoutSession) []any {
	return []any{s.ID, s.AccountID, s.LinkID, s.APIKeyID, s.Method, s.OriginalAmount, s.DiscountAmount, s.Amount,
		s.CouponID, s.CouponCode, pq.StringArray(s.ProductIDs.V), s.Payer, s.TransactionID, s.ExternalReference, s.ExpiresAt, s.CreatedAt}
}

// InsertSession stores a new OPEN session; it reports false, writing
// nothing, when a session with its id exists (another attempt of the same
// checkout stored it).
func InsertSession(ctx context.Context, q sqlx.ExecerContext, s checkout.CheckoutSession) (bool, error) {
	res, err := hotExec(ctx, q, insertSessionSQL, sessionArgs(s)...)
	if err != nil {
		return false, fmt.Errorf("db: insert checkout session: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// SessionRow is a session that holds nothing written beside its charge
// (FirstRecordsWithOwner): it commits with the charge that pays it.
func SessionRow(s checkout.CheckoutSession) OwnerRow {
	return OwnerRow{SQL: sessionBesideSQL, Args: sessionArgs(s)}
}

// GetSession reads a session of the account.
func GetSession(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (checkout.CheckoutSession, error) {
	var s checkout.CheckoutSession
	err := hotGet(ctx, q, &s, `SELECT `+sessionColumns+` FROM checkout_sessions WHERE id = $1 AND account_id = $2`, id, accountID)
	return s, sessionErr(err, "get")
}

// PublicSession reads a session by id alone: the hosted session page, whose
// visitor has no API key (the unguessable session id is the page's address).
func PublicSession(ctx context.Context, q sqlx.QueryerContext, id string) (checkout.CheckoutSession, error) {
	var s checkout.CheckoutSession
	err := hotGet(ctx, q, &s, `SELECT `+sessionColumns+` FROM checkout_sessions WHERE id = $1`, id)
	return s, sessionErr(err, "get public")
}

// LockSession reads a session under its row lock.
func LockSession(ctx context.Context, tx *sqlx.Tx, id string) (checkout.CheckoutSession, error) {
	var s checkout.CheckoutSession
	err := tx.GetContext(ctx, &s, `SELECT `+sessionColumns+` FROM checkout_sessions WHERE id = $1 FOR UPDATE`, id)
	return s, sessionErr(err, "lock")
}

// SaveSession stores a session's move out of OPEN.
func SaveSession(ctx context.Context, tx *sqlx.Tx, s checkout.CheckoutSession) error {
	_, err := tx.ExecContext(ctx, `UPDATE checkout_sessions SET status = $2, customer_id = $3, delivery = $4, paid_at = $5,
		updated_at = now() WHERE id = $1`, s.ID, s.Status, s.CustomerID, s.Delivery, s.PaidAt)
	if err != nil {
		return fmt.Errorf("db: save checkout session: %w", err)
	}
	return nil
}

// ExpireSession closes a session whose charge could not be made: it holds
// nothing any more.
func ExpireSession(ctx context.Context, q sqlx.ExecerContext, id string) error {
	_, err := q.ExecContext(ctx, `UPDATE checkout_sessions SET status = 'EXPIRED', updated_at = now() WHERE id = $1 AND status = 'OPEN'`, id)
	if err != nil {
		return fmt.Errorf("db: expire checkout session: %w", err)
	}
	return nil
}

// CouponHeld counts the OPEN sessions that hold a use of the coupon (see
// SessionHoldGrace); a checkout holds the coupon's row lock while it
// counts, a validation only reads.
func CouponHeld(ctx context.Context, q sqlx.QueryerContext, couponID string) (int, error) {
	var n int
	err := sqlx.GetContext(ctx, q, &n, `SELECT count(*) FROM checkout_sessions
		WHERE coupon_id = $1 AND status = 'OPEN' AND expires_at > now() - make_interval(secs => $2)`, couponID, SessionHoldGrace.Seconds())
	if err != nil {
		return 0, fmt.Errorf("db: count coupon holds: %w", err)
	}
	return n, nil
}

// ProductHeld counts the OPEN sessions that hold a line of the product;
// the caller holds the product's row lock. The non-empty list is what the
// partial index holds (migration 00029): named, the planner uses it.
func ProductHeld(ctx context.Context, tx *sqlx.Tx, productID string) (int, error) {
	var n int
	err := tx.GetContext(ctx, &n, `SELECT count(*) FROM checkout_sessions
		WHERE product_ids @> ARRAY[$1]::text[] AND product_ids <> '{}' AND status = 'OPEN' AND expires_at > now() - make_interval(secs => $2)`, productID, SessionHoldGrace.Seconds())
	if err != nil {
		return 0, fmt.Errorf("db: count product holds: %w", err)
	}
	return n, nil
}

// saleHolds tells whether sale (a checkout session's id) still holds what
// it sells: its session is OPEN and its expiry plus SessionHoldGrace is
// after this statement's start. A session whose hold lapsed (EXPIRED, or
// OPEN past the grace with its charge's expiry not run yet), or an id that
// is no session, holds nothing: the checkouts made since did not count it
// (CouponHeld, ProductHeld). The statement's time, not the transaction's,
// is the one to judge by: a payment that waited for the coupon's or the
// product's row lock behind a checkout that found its hold lapsed must
// find it lapsed too.
func saleHolds(ctx context.Context, tx *sqlx.Tx, sale string) (bool, error) {
	var holds bool
	err := tx.GetContext(ctx, &holds, `SELECT EXISTS (SELECT 1 FROM checkout_sessions WHERE id = $1 AND status = 'OPEN'
		AND expires_at > statement_timestamp() - make_interval(secs => $2))`, sale, SessionHoldGrace.Seconds())
	if err != nil {
		return false, fmt.Errorf("db: does the sale hold: %w", err)
	}
	return holds, nil
}

func sessionErr(err error, what string) error {
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return domain.NotFound("checkout session")
	case err != nil:
		return fmt.Errorf("db: %s checkout session: %w", what, err)
	}
	return nil
}
