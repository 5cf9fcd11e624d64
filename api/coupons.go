package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

//go:generate go tool mockgen -destination=apimock/coupons.go -package=apimock . Coupons

// Coupons manages the store's coupons and answers their validation.
type Coupons interface {
	Create(ctx context.Context, acct domain.Account, p store.CouponPatch) (store.Coupon, error)
	Get(ctx context.Context, acct domain.Account, id string) (store.Coupon, error)
	List(ctx context.Context, acct domain.Account, f store.CouponFilter) ([]store.Coupon, int, error)
	Update(ctx context.Context, acct domain.Account, id string, p store.CouponPatch) (store.Coupon, error)
	Delete(ctx context.Context, acct domain.Account, id string) error
	Validate(ctx context.Context, acct domain.Account, c store.CouponCheck) (store.CouponQuote, error)
}

// The coupon routes (spec "Store"; body and list names from CONTRACTS.md).
// A coupon's public form is domain.Coupon itself.

func (s *Server) createCoupon(c *gin.Context) {
	bindAndAct[store.CouponPatch, store.CouponRequest](c, "Coupon created", func(p store.CouponPatch) (any, error) {
		p.IdempotencyKey = idempotencyKey(c)
		return s.Coupons.Create(c.Request.Context(), accountOf(c), p)
	})
}

func (s *Server) getCoupon(c *gin.Context) {
	cp, err := s.Coupons.Get(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Coupon", cp)
}

func (s *Server) listCoupons(c *gin.Context) {
	pg, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	f, err := store.NewCouponFilter(pg.Page, pg.PageSize, c.Query("search"), c.Query("status"))
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Coupons.List(c.Request.Context(), accountOf(c), f)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Coupons", pageOf(rows, pg, total, func(cp store.Coupon) store.Coupon { return cp }))
}

func (s *Server) updateCoupon(c *gin.Context) {
	bindAndAct[store.CouponPatch, store.CouponUpdateRequest](c, "Coupon updated", func(p store.CouponPatch) (any, error) {
		return s.Coupons.Update(c.Request.Context(), accountOf(c), c.Param("id"), p)
	})
}

func (s *Server) deleteCoupon(c *gin.Context) {
	if err := s.Coupons.Delete(c.Request.Context(), accountOf(c), c.Param("id")); err != nil {
		fail(c, err)
		return
	}
	ok(c, "Coupon deleted", deleted{ID: c.Param("id"), Deleted: true})
}

func (s *Server) validateCoupon(c *gin.Context) {
	bindAndAct[store.CouponCheck, store.CouponValidateRequest](c, "Coupon validated", func(ch store.CouponCheck) (any, error) {
		return s.Coupons.Validate(c.Request.Context(), accountOf(c), ch)
	})
}
