package service

import (
	"context"
	"errors"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

// Coupons manages the store's discount coupons (spec "Store").
// Synchronous: no money moves, no workflow. A coupon's discount is
// domain.Coupon.Quote (validate and checkout alike); its uses are counted
// when a session is paid, by db.UseCoupon in the session's paid transition.
type Coupons struct {
	DB *sqlx.DB
}

// Create stores a coupon. A retry under the same Idempotency-Key finds the
// coupon its first attempt made before the code's uniqueness is checked.
func (s *Coupons) Create(ctx context.Context, acct domain.Account, p store.CouponPatch) (store.Coupon, error) {
	id := newID("cpn_", acct.ID, "coupon", p.IdempotencyKey)
	if p.IdempotencyKey != "" {
		if found, err := db.GetCoupon(ctx, s.DB, acct.ID, id); !errors.Is(err, domain.ErrNotFound) {
			if err == nil {
				err = ownsKey(ctx, found.CreatedAt.Time)
			}
			return found, err
		}
	}
	c, err := store.Coupon{ID: id, AccountID: acct.ID}.Apply(p)
	if err != nil {
		return c, err
	}
	if err := s.checkProducts(ctx, acct, p.ProductIDs); err != nil {
		return c, err
	}
	return db.InsertCoupon(ctx, s.DB, c)
}

// checkProducts refuses productIds that are not the account's products.
func (s *Coupons) checkProducts(ctx context.Context, acct domain.Account, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	missing, err := db.MissingProducts(ctx, s.DB, acct.ID, ids)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return domain.Invalid("productIds", "has ids that are not products of this account: %s", strings.Join(missing, ", "))
	}
	return nil
}

// Get reads one of the account's coupons.
func (s *Coupons) Get(ctx context.Context, acct domain.Account, id string) (store.Coupon, error) {
	return db.GetCoupon(ctx, s.DB, acct.ID, id)
}

// List is one page of the account's coupons that f selects.
func (s *Coupons) List(ctx context.Context, acct domain.Account, f store.CouponFilter) ([]store.Coupon, int, error) {
	return db.ListCoupons(ctx, s.DB, acct.ID, f)
}

// Update applies p to one of the account's coupons.
func (s *Coupons) Update(ctx context.Context, acct domain.Account, id string, p store.CouponPatch) (store.Coupon, error) {
	if err := s.checkProducts(ctx, acct, p.ProductIDs); err != nil {
		return store.Coupon{}, err
	}
	return db.UpdateCoupon(ctx, s.DB, acct.ID, id, p)
}

// Delete deletes one of the account's coupons (sessions that used it keep it).
func (s *Coupons) Delete(ctx context.Context, acct domain.Account, id string) error {
	return db.DeleteCoupon(ctx, s.DB, acct.ID, id)
}

// Validate quotes the account's coupon with the check's code for its
// amount, link and product. A code that names no coupon is an answer
// (valid false, with the reason), not an error; validating counts no use.
func (s *Coupons) Validate(ctx context.Context, acct domain.Account, c store.CouponCheck) (store.CouponQuote, error) {
	coupon, err := db.GetCouponByCode(ctx, s.DB, acct.ID, c.Code)
	if errors.Is(err, domain.ErrNotFound) {
		return store.NoCoupon(c.Use.Amount), nil
	}
	if err != nil {
		return store.CouponQuote{}, err
	}
	// The uses open checkouts hold are taken, as a checkout counts them:
	// validate never says valid to a coupon a checkout would refuse.
	held, err := db.CouponHeld(ctx, s.DB, coupon.ID)
	if err != nil {
		return store.CouponQuote{}, err
	}
	c.Use.Held = int64(held)
	return coupon.Quote(c.Use), nil
}
