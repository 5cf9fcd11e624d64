package api

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// sandboxPayer is who pays a sandbox charge when the call names nobody.
var sandboxPayer = domain.Party{Name: "Pagador Sandbox", Document: "52998224725"}

type sandboxPayBody struct {
	PayerName     *string `json:"payerName"`
	PayerDocument *string `json:"payerDocument"`
}

// sandboxCharge loads the caller's charge named in the path.
func (s *Server) sandboxCharge(c *gin.Context) (domain.Transaction, bool) {
	t, err := db.GetTransaction(c.Request.Context(), s.db, accountOf(c).ID, c.Param("id"), domain.TypePixIn)
	if err != nil {
		fail(c, err)
		return t, false
	}
	return t, true
}

// notifyCharge hands the processor notice to the charge's workflow.
func (s *Server) notifyCharge(c *gin.Context, t domain.Transaction, n processor.ChargeNotice) {
	if err := s.Charges.Notify(c.Request.Context(), t, n); err != nil {
		fail(c, err)
		return
	}
	ok(c, "Notification accepted", gin.H{"id": t.ID, "outcome": n.Outcome})
}

func (s *Server) sandboxPay(c *gin.Context) {
	var body sandboxPayBody
	if err := bind(c, &body); err != nil {
		fail(c, err)
		return
	}
	t, found := s.sandboxCharge(c)
	if !found {
		return
	}
	who := sandboxPayer
	if body.PayerName != nil || body.PayerDocument != nil {
		p, err := payer(createChargeBody{PayerName: body.PayerName, PayerDocument: body.PayerDocument})
		if err != nil {
			fail(c, err)
			return
		}
		who = *p
	}
	s.notifyCharge(c, t, s.Sandbox.Deposit(&who, time.Now()))
}

func (s *Server) sandboxFail(c *gin.Context) {
	if t, found := s.sandboxCharge(c); found {
		s.notifyCharge(c, t, processor.ChargeNotice{Outcome: processor.OutcomeFailed, At: time.Now().UTC(), Reason: "sandbox failure"})
	}
}

func (s *Server) sandboxExpire(c *gin.Context) {
	if t, found := s.sandboxCharge(c); found {
		s.notifyCharge(c, t, processor.ChargeNotice{Outcome: processor.OutcomeExpired, At: time.Now().UTC()})
	}
}
