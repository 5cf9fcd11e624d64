package api

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// sandboxTransfer tells the PIX out's workflow what the network did.
func (s *Server) sandboxTransfer(c *gin.Context, settle bool) {
	t, err := db.GetTransaction(c.Request.Context(), s.db, accountOf(c).ID, c.Param("id"), domain.TypePixOut)
	if err != nil {
		fail(c, err)
		return
	}
	n := processor.ChargeNotice{Outcome: processor.OutcomeFailed, At: time.Now().UTC(), Reason: "sandbox failure"}
	if settle {
		n = processor.Settlement(t.Details.V.PixKeyType, t.Details.V.PixKey, time.Now())
	}
	if err := s.Transfers.Signal(c.Request.Context(), t, workflows.NoticeSignal, n); err != nil {
		fail(c, err)
		return
	}
	ok(c, "Notification accepted", gin.H{"id": t.ID, "outcome": n.Outcome})
}

func (s *Server) sandboxTransferSettle(c *gin.Context) { s.sandboxTransfer(c, true) }
func (s *Server) sandboxTransferFail(c *gin.Context)   { s.sandboxTransfer(c, false) }

// sandboxRefund tells the refund's workflow what the network did; the id is
// the deposit's id, its e2eId or the caller's refundId.
func (s *Server) sandboxRefund(c *gin.Context, settle bool) {
	d, err := db.FindDeposit(c.Request.Context(), s.db, accountOf(c).ID, c.Param("id"), false)
	if err != nil {
		fail(c, err)
		return
	}
	n := processor.ChargeNotice{Outcome: processor.OutcomeFailed, At: time.Now().UTC(), Reason: "sandbox failure"}
	if settle {
		n = processor.ChargeNotice{Outcome: processor.OutcomeSettled, At: time.Now().UTC()}
	}
	if err := s.Refunds.Signal(c.Request.Context(), d, n); err != nil {
		fail(c, err)
		return
	}
	ok(c, "Notification accepted", gin.H{"id": d.ID, "outcome": n.Outcome})
}

func (s *Server) sandboxRefundSettle(c *gin.Context) { s.sandboxRefund(c, true) }
func (s *Server) sandboxRefundFail(c *gin.Context)   { s.sandboxRefund(c, false) }
