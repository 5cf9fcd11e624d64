package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
)

//go:generate go tool mockgen -destination=apimock/transfers.go -package=apimock . Transfers

// Transfers sends PIX and takes security review decisions.
type Transfers interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in domain.NewTransfer) (domain.Transaction, error)
	Review(ctx context.Context, id, decision string) error
}

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
