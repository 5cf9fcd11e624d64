package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

const couponColumns = `id, account_id, code, discount_type, discount_value, uses, max_uses, expires_at, status,
	product_ids, payment_link_ids, created_at, updated_at`

// errCodeTaken is the 400 of a code another live coupon of the account has,
// in any case.
var errCodeTaken = domain.Invalid("code", "is already used by another coupon of this account (codes ignore case)")

// InsertCoupon stores a new coupon; a code a live coupon of the account
// already has, in any case, is a 400 naming code.
func InsertCoupon(ctx context.Context, q sqlx.QueryerContext, c store.Coupon) (store.Coupon, error) {
	var out store.Coupon
	err := sqlx.GetContext(ctx, q, &out, `
		INSERT INTO coupons (id, account_id, code, discount_type, discount_value, max_uses, expires_at, status,
			product_ids, payment_link_ids)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING `+couponColumns,
		c.ID, c.AccountID, c.Code, c.DiscountType, c.DiscountValue, c.MaxUses, c.ExpiresAt, c.Status,
		c.ProductIDs, c.PaymentLinkIDs)
	if isUniqueViolation(err) {
		return out, errCodeTaken
	}
	if err != nil {
		return out, fmt.Errorf("db: insert coupon: %w", err)
	}
	return out, nil
}

// GetCoupon reads one of the account's live coupons; another account's
// coupon is not found.
func GetCoupon(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (store.Coupon, error) {
	return findCoupon(ctx, q, "id = $1", accountID, id, "")
}

// GetCouponByCode reads the account's live coupon with code, in any case.
func GetCouponByCode(ctx context.Context, q sqlx.QueryerContext, accountID, code string) (store.Coupon, error) {
	return findCoupon(ctx, q, "lower(code) = lower($1)", accountID, code, "")
}

// LockCouponByCode is GetCouponByCode under the coupon's row lock, inside
// the caller's transaction: a checkout holds it while it counts the uses
// its OPEN sessions hold against maxUses.
func LockCouponByCode(ctx context.Context, tx *sqlx.Tx, accountID, code string) (store.Coupon, error) {
	return findCoupon(ctx, tx, "lower(code) = lower($1)", accountID, code, "FOR UPDATE")
}

func findCoupon(ctx context.Context, q sqlx.QueryerContext, cond, accountID, key, lock string) (store.Coupon, error) {
	var c store.Coupon
	err := sqlx.GetContext(ctx, q, &c, `SELECT `+couponColumns+` FROM coupons
		WHERE `+cond+` AND account_id = $2 AND deleted_at IS NULL `+lock, key, accountID)
	if errors.Is(err, sql.ErrNoRows) {
		return c, domain.NotFound("coupon")
	}
	if err != nil {
		return c, fmt.Errorf("db: get coupon: %w", err)
	}
	return c, nil
}

// ListCoupons returns one page of the account's live coupons that f
// selects, newest first, and how many there are.
func ListCoupons(ctx context.Context, q sqlx.QueryerContext, accountID string, f store.CouponFilter) ([]store.Coupon, int, error) {
	conds := []string{"account_id = $1", "deleted_at IS NULL"}
	args := []any{accountID}
	if f.Status != "" {
		args = append(args, f.Status)
		conds = append(conds, fmt.Sprintf("status = $%d", len(args)))
	}
	if f.Search != "" {
		args = append(args, likePattern(f.Search))
		conds = append(conds, fmt.Sprintf("code ILIKE $%d", len(args)))
	}
	return listPage[store.Coupon](ctx, q, "coupons", couponColumns, "coupons", strings.Join(conds, " AND "), args, f.Page, f.PageSize)
}

// UpdateCoupon applies p to one of the account's live coupons under its
// row lock (so that maxUses is checked against the uses counted so far).
func UpdateCoupon(ctx context.Context, d *sqlx.DB, accountID, id string, p store.CouponPatch) (store.Coupon, error) {
	var out store.Coupon
	err := InTx(ctx, d, func(tx *sqlx.Tx) error {
		c, err := findCoupon(ctx, tx, "id = $1", accountID, id, "FOR UPDATE")
		if err != nil {
			return err
		}
		if c, err = c.Apply(p); err != nil {
			return err
		}
		err = tx.GetContext(ctx, &out, `
			UPDATE coupons SET code = $2, discount_type = $3, discount_value = $4, max_uses = $5, expires_at = $6,
				status = $7, product_ids = $8, payment_link_ids = $9, updated_at = now()
			WHERE id = $1 RETURNING `+couponColumns,
			c.ID, c.Code, c.DiscountType, c.DiscountValue, c.MaxUses, c.ExpiresAt, c.Status, c.ProductIDs, c.PaymentLinkIDs)
		if isUniqueViolation(err) {
			return errCodeTaken
		}
		if err != nil {
			return fmt.Errorf("db: update coupon: %w", err)
		}
		return nil
	})
	return out, err
}

// DeleteCoupon deletes one of the account's live coupons. The row stays
// (the sessions that used it name it); its code is free.
func DeleteCoupon(ctx context.Context, q sqlx.ExecerContext, accountID, id string) error {
	res, err := q.ExecContext(ctx, `UPDATE coupons SET deleted_at = now(), updated_at = now()
		WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`, id, accountID)
	if err != nil {
		return fmt.Errorf("db: delete coupon: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return domain.NotFound("coupon")
	}
	return nil
}

// UseCoupon counts one use of a coupon by a paid sale, inside the caller's
// transaction (a checkout session's paid transition, sessionID its id).
// It is idempotent on the session: counted once however often it is
// called. Uses of one coupon queue on its row lock, so maxUses is never
// passed: past it, UseCoupon returns domain.ErrCouponExhausted and writes
// nothing (the caller decides what a paid sale with a used-up coupon
// does). A session that still holds its use (saleHolds) takes it; one
// whose hold lapsed takes a use only if one is left beyond those the OPEN
// sessions hold (CouponHeld), so a late payment never takes the use a
// checkout made since is holding: uses + holds never pass maxUses.
func UseCoupon(ctx context.Context, tx *sqlx.Tx, couponID, sessionID string) error {
	var c struct {
		Uses    int64  `db:"uses"`
		MaxUses *int64 `db:"max_uses"`
	}
	err := tx.GetContext(ctx, &c, `SELECT uses, max_uses FROM coupons WHERE id = $1 FOR UPDATE`, couponID)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.NotFound("coupon")
	}
	if err != nil {
		return fmt.Errorf("db: lock coupon: %w", err)
	}
	var counted bool
	if err := tx.GetContext(ctx, &counted, `SELECT EXISTS (SELECT 1 FROM coupon_uses WHERE coupon_id = $1 AND session_id = $2)`,
		couponID, sessionID); err != nil {
		return fmt.Errorf("db: find coupon use: %w", err)
	}
	if counted {
		return nil
	}
	if c.MaxUses != nil {
		room := *c.MaxUses - c.Uses
		if room > 0 {
			holds, err := saleHolds(ctx, tx, sessionID)
			if err != nil {
				return err
			}
			if !holds {
				held, err := CouponHeld(ctx, tx, couponID)
				if err != nil {
					return err
				}
				room -= int64(held)
			}
		}
		if room <= 0 {
			return store.ErrCouponExhausted
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO coupon_uses (coupon_id, session_id) VALUES ($1, $2)`, couponID, sessionID); err != nil {
		return fmt.Errorf("db: record coupon use: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE coupons SET uses = uses + 1, updated_at = now() WHERE id = $1`, couponID); err != nil {
		return fmt.Errorf("db: count coupon use: %w", err)
	}
	return nil
}
