package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
)

//go:generate go tool mockgen -destination=apimock/internal.go -package=apimock . Internal

// Internal moves money between accounts.
type Internal interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in domain.NewInternal) (domain.Transaction, error)
}

func (s *Server) createInternal(c *gin.Context) {
	bindAndAct[domain.NewInternal, domain.InternalRequest](c, "Internal transfer completed", func(req domain.NewInternal) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		t, err := s.Internal.Create(c.Request.Context(), accountOf(c), keyOf(c), req)
		return t.Public(s.cfg.PublicURL), err
	})
}

func (s *Server) getInternal(c *gin.Context) {
	s.showTransaction(c, "Internal transfer", false, domain.TypeInternalOut, domain.TypeInternalIn)
}

func (s *Server) listInternal(c *gin.Context) {
	s.listTransactions(c, "Internal transfers", false, domain.TypeInternalOut, domain.TypeInternalIn)
}
