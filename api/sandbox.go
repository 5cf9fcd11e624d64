package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

// The sandbox routes play the processor and the PIX network: each one asks
// the Sandbox use case, which finds the caller's resource (another
// account's id is simply not found) and has the processor adapter's
// simulator send the notice a real processor would.

type sandboxPayBody struct {
	PayerName     *string `json:"payerName"`
	PayerDocument *string `json:"payerDocument"`
}

// simulation is a simulation's answer: the resource and the outcome notified.
type simulation struct {
	ID      string `json:"id"`
	Outcome string `json:"outcome"`
}

// simulated answers a simulation.
func simulated(c *gin.Context, r service.Simulated, err error) {
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Notification accepted", simulation{ID: r.ID, Outcome: r.Outcome})
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
	r, err := s.Sandbox.Pay(c.Request.Context(), accountOf(c), c.Param("id"), payer)
	simulated(c, r, err)
}

func (s *Server) sandboxFail(c *gin.Context) {
	r, err := s.Sandbox.FailCharge(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}

func (s *Server) sandboxExpire(c *gin.Context) {
	r, err := s.Sandbox.ExpireCharge(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}

func (s *Server) sandboxTransferSettle(c *gin.Context) {
	r, err := s.Sandbox.SettleTransfer(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}

func (s *Server) sandboxTransferFail(c *gin.Context) {
	r, err := s.Sandbox.FailTransfer(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}

func (s *Server) sandboxRefundSettle(c *gin.Context) {
	r, err := s.Sandbox.SettleRefund(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}

func (s *Server) sandboxRefundFail(c *gin.Context) {
	r, err := s.Sandbox.FailRefund(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}
