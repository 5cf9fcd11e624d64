package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
)

// The coupon routes (spec "Store"; body and list names from CONTRACTS.md).
// A coupon's public form is domain.Coupon itself.

func (s *Server) createCoupon(c *gin.Context) {
	bindAndAct[domain.CouponPatch, domain.CouponRequest](c, "Coupon created", func(p domain.CouponPatch) (any, error) {
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
	f, err := domain.NewCouponFilter(pg.Page, pg.PageSize, c.Query("search"), c.Query("status"))
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Coupons.List(c.Request.Context(), accountOf(c), f)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Coupons", pageOf(rows, pg, total, func(cp domain.Coupon) domain.Coupon { return cp }))
}

func (s *Server) updateCoupon(c *gin.Context) {
	bindAndAct[domain.CouponPatch, domain.CouponUpdateRequest](c, "Coupon updated", func(p domain.CouponPatch) (any, error) {
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
	bindAndAct[domain.CouponCheck, domain.CouponValidateRequest](c, "Coupon validated", func(ch domain.CouponCheck) (any, error) {
		return s.Coupons.Validate(c.Request.Context(), accountOf(c), ch)
	})
}
