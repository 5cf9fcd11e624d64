package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
)

func (s *Server) createTransfer(c *gin.Context) {
	bindAndAct[domain.NewTransfer, domain.TransferRequest](c, "PIX transfer created", func(req domain.NewTransfer) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		t, err := s.Transfers.Create(c.Request.Context(), accountOf(c), keyOf(c), req)
		return t.Public(s.cfg.PublicURL), err
	})
}

func (s *Server) getTransfer(c *gin.Context) {
	s.showTransaction(c, "PIX transfer", false, domain.TypePixOut)
}

func (s *Server) transferStatus(c *gin.Context) {
	s.showTransaction(c, "PIX transfer status", true, domain.TypePixOut)
}

func (s *Server) listTransfers(c *gin.Context) {
	s.listTransactions(c, "PIX transfers", true, domain.TypePixOut)
}
