package service

import (
	"context"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/store"
)

// hold prices the coupon and holds a use of it and a line of each product
// that hands out lines, under their row locks: the OPEN session it stores
// in the same transaction is the hold.
func (s *Checkouts) hold(ctx context.Context, tx *sqlx.Tx, sess *checkout.CheckoutSession, couponCode string) error {
	if couponCode != "" {
		if err := holdCoupon(ctx, tx, sess, couponCode); err != nil {
			return err
		}
	}
	return holdProducts(ctx, tx, sess)
}

// holdCoupon applies the coupon to the session (store's rules and exact
// discount: domain.Coupon.Quote), counting the uses OPEN sessions hold as
// taken, under the coupon's row lock: the use itself is counted when the
// session is paid (activities.PaySession).
func holdCoupon(ctx context.Context, tx *sqlx.Tx, sess *checkout.CheckoutSession, code string) error {
	c, err := db.LockCouponByCode(ctx, tx, sess.AccountID, code)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Invalid("couponCode", "is not a coupon of this store")
	}
	if err != nil {
		return err
	}
	held, err := db.CouponHeld(ctx, tx, c.ID)
	if err != nil {
		return err
	}
	q := c.Quote(store.CouponUse{Amount: sess.OriginalAmount, PaymentLinkID: sess.LinkID, ProductIDs: sess.ProductIDs.V,
		Now: time.Now(), Held: int64(held)})
	if !q.Valid {
		return domain.Invalid("couponCode", "cannot be used: %s", q.Reason)
	}
	sess.CouponID, sess.CouponCode = &c.ID, &c.Code
	sess.DiscountAmount, sess.Amount = q.DiscountAmount, q.FinalAmount
	return nil
}

// holdProducts refuses a sale of a product that is gone, inactive or, for
// one that hands out lines, without a line that no OPEN session holds.
func holdProducts(ctx context.Context, tx *sqlx.Tx, sess *checkout.CheckoutSession) error {
	ids := sess.ProductIDs.V
	if len(ids) == 0 {
		return nil
	}
	products, err := db.LockProducts(ctx, tx, sess.AccountID, ids)
	if err != nil {
		return err
	}
	if len(products) != len(ids) {
		return domain.Invalid("linkId", "sells a product that no longer exists")
	}
	// Priced before the locks (PriceCheckout): a price changed since is
	// not sold at the old one.
	if sum, ok := checkout.ProductsPrice(products); ok && sum != sess.OriginalAmount {
		return domain.Invalid("linkId", "sells a product whose price changed while checking out: try again")
	}
	for _, p := range products {
		if p.Status != store.ProductActive {
			return domain.Invalid("linkId", "sells the product %q, which is not for sale now", p.Name)
		}
		if !handsOutLines(p) {
			continue
		}
		held, err := db.ProductHeld(ctx, tx, p.ID)
		if err != nil {
			return err
		}
		if p.LinesAvailable-held <= 0 {
			return domain.Invalid("linkId", "sells the product %q, which has no lines left", p.Name)
		}
	}
	return nil
}

// handsOutLines tells whether a sale of p takes one of its TEXT_LINES.
func handsOutLines(p store.Product) bool {
	for _, d := range p.Deliveries {
		if d.Type == store.DeliveryTextLines {
			return true
		}
	}
	return false
}
