package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// The sandbox routes play the processor and the PIX network: each one
// loads the caller's resource (another account's id is simply not found)
// and asks the sandbox adapter to send the notice a real processor would.

type sandboxPayBody struct {
	PayerName     *string `json:"payerName"`
	PayerDocument *string `json:"payerDocument"`
}

// simulate loads the caller's resource with find and runs the simulation
// act on it, which answers the outcome it notified.
func (s *Server) simulate(c *gin.Context, find func(c *gin.Context) (domain.Transaction, error), act func(t domain.Transaction) (string, error)) {
	t, err := find(c)
	outcome := ""
	if err == nil {
		outcome, err = act(t)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Notification accepted", gin.H{"id": t.ID, "outcome": outcome})
}

// as gives a simulation that returns only an error its outcome.
func as(outcome string, err error) (string, error) { return outcome, err }

func (s *Server) charge(c *gin.Context) (domain.Transaction, error) {
	return db.GetTransaction(c.Request.Context(), s.db, accountOf(c).ID, c.Param("id"), domain.TypePixIn)
}

func (s *Server) transfer(c *gin.Context) (domain.Transaction, error) {
	return db.GetTransaction(c.Request.Context(), s.db, accountOf(c).ID, c.Param("id"), domain.TypePixOut)
}

// deposit finds a refund's deposit by its id, its e2eId or the refundId.
func (s *Server) deposit(c *gin.Context) (domain.Transaction, error) {
	return db.FindDeposit(c.Request.Context(), s.db, accountOf(c).ID, c.Param("id"), false)
}

func (s *Server) sandboxPay(c *gin.Context) {
	var body sandboxPayBody
	if err := bind(c, &body); err != nil {
		fail(c, err)
		return
	}
	payer, err := domain.PayerOf(body.PayerName, body.PayerDocument)
	if err != nil {
		fail(c, err)
		return
	}
	s.simulate(c, s.charge, func(t domain.Transaction) (string, error) {
		return as(processor.OutcomePaid, s.Sandbox.Pay(c.Request.Context(), t.ID, payer))
	})
}

func (s *Server) sandboxFail(c *gin.Context) {
	s.simulate(c, s.charge, func(t domain.Transaction) (string, error) {
		return as(processor.OutcomeFailed, s.Sandbox.FailCharge(c.Request.Context(), t.ID))
	})
}

func (s *Server) sandboxExpire(c *gin.Context) {
	s.simulate(c, s.charge, func(t domain.Transaction) (string, error) {
		return as(processor.OutcomeExpired, s.Sandbox.ExpireCharge(c.Request.Context(), t.ID))
	})
}

func (s *Server) sandboxTransferSettle(c *gin.Context) {
	s.simulate(c, s.transfer, func(t domain.Transaction) (string, error) {
		return s.Sandbox.SettleTransfer(c.Request.Context(), t.ID, t.Details.V.PixKeyType, t.Details.V.PixKey)
	})
}

func (s *Server) sandboxTransferFail(c *gin.Context) {
	s.simulate(c, s.transfer, func(t domain.Transaction) (string, error) {
		return as(processor.OutcomeFailed, s.Sandbox.FailTransfer(c.Request.Context(), t.ID))
	})
}

func (s *Server) sandboxRefundSettle(c *gin.Context) {
	s.simulate(c, s.deposit, func(d domain.Transaction) (string, error) {
		return as(processor.OutcomeSettled, s.Sandbox.SettleRefund(c.Request.Context(), d.ID))
	})
}

func (s *Server) sandboxRefundFail(c *gin.Context) {
	s.simulate(c, s.deposit, func(d domain.Transaction) (string, error) {
		return as(processor.OutcomeFailed, s.Sandbox.FailRefund(c.Request.Context(), d.ID))
	})
}
