package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
)

//go:generate go tool mockgen -destination=apimock/refunds.go -package=apimock . Refunds

// Refunds refunds received PIX.
type Refunds interface {
	Create(ctx context.Context, acct domain.Account, in domain.NewRefund) (domain.Transaction, error)
}

func (s *Server) createRefund(c *gin.Context) {
	bindAndAct[domain.NewRefund, domain.RefundRequest](c, "Refund requested", func(req domain.NewRefund) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		d, err := s.Refunds.Create(c.Request.Context(), accountOf(c), req)
		return d.Public(s.cfg.PublicURL), err
	})
}

// getRefund finds the deposit by transaction id, refundId or e2eId.
func (s *Server) getRefund(c *gin.Context) {
	d, err := s.Transactions.Refund(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Refund", d.Public(s.cfg.PublicURL))
}

func (s *Server) listRefunds(c *gin.Context) {
	f, err := listFilter(c, false)
	if err != nil {
		fail(c, err)
		return
	}
	f.Types, f.RefundsOnly = []string{domain.TypePixIn}, true
	rows, total, err := s.Transactions.List(c.Request.Context(), accountOf(c), f)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Refunds", pageOf(rows, f, total, func(t domain.Transaction) domain.PublicTransaction { return t.Public(s.cfg.PublicURL) }))
}
