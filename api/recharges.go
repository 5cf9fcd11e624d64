package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/recharges.go -package=apimock . Recharges

// Recharges tops up mobile phones: the operator's offer for a number, the
// create and the cancellation (reads go through Transactions).
type Recharges interface {
	Provider(ctx context.Context, acct domain.Account, phone mobile.MobileNumber) (service.RechargeProvider, error)
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in mobile.NewRecharge) (domain.Transaction, error)
	Cancel(ctx context.Context, acct domain.Account, id string) (domain.Transaction, error)
}

// RechargesSandbox simulates the operator delivering a recharge.
type RechargesSandbox interface {
	CompleteRecharge(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
}

func (s *Server) rechargeProvider(c *gin.Context) {
	phone, err := mobile.ParseMobileNumber("phone", c.Param("phone"))
	if err != nil {
		fail(c, err)
		return
	}
	p, err := s.Recharges.Provider(c.Request.Context(), accountOf(c), phone)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Mobile recharge provider", p)
}

func (s *Server) createRecharge(c *gin.Context) {
	bindAndAct[mobile.NewRecharge, mobile.RechargeRequest](c, "Mobile recharge created", func(req mobile.NewRecharge) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		t, err := s.Recharges.Create(c.Request.Context(), accountOf(c), keyOf(c), req)
		return t.Public(s.cfg.PublicURL), err
	})
}

func (s *Server) listRecharges(c *gin.Context) {
	s.listTransactions(c, "Mobile recharges", false, domain.TypeMobileRecharge)
}

func (s *Server) getRecharge(c *gin.Context) {
	s.showTransaction(c, "Mobile recharge", false, domain.TypeMobileRecharge)
}

func (s *Server) cancelRecharge(c *gin.Context) {
	t, err := s.Recharges.Cancel(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Mobile recharge cancelled", t.Public(s.cfg.PublicURL))
}

func (s *Server) sandboxRechargeComplete(c *gin.Context) {
	r, err := s.Sandbox.CompleteRecharge(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}
