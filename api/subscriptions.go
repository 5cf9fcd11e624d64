package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
)

//go:generate go tool mockgen -destination=apimock/subscriptions.go -package=apimock . Subscriptions

// Subscriptions: recurring billings, one workflow per subscription.
type Subscriptions interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in billing.NewSubscription) (billing.SubscriptionRecord, error)
	Get(ctx context.Context, acct domain.Account, idOrExternal string) (billing.SubscriptionRecord, error)
	List(ctx context.Context, acct domain.Account, status string, page, pageSize int) ([]billing.Subscription, int, error)
	Cancel(ctx context.Context, acct domain.Account, idOrExternal string) (billing.SubscriptionRecord, error)
}

func (s *Server) createSubscription(c *gin.Context) {
	bindAndAct[billing.NewSubscription, billing.SubscriptionRequest](c, "Subscription created", func(req billing.NewSubscription) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		if req.Billing.Card != nil && req.Billing.RemoteIP == "" {
			req.Billing.RemoteIP = c.ClientIP() // the spec's default: the request's address
		}
		return s.Subscriptions.Create(c.Request.Context(), accountOf(c), keyOf(c), req)
	})
}

func (s *Server) listSubscriptions(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	status, err := domain.OneOf("status", c.Query("status"), billing.SubscriptionStatuses...)
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Subscriptions.List(c.Request.Context(), accountOf(c), status, f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Subscriptions", pageOf(rows, f, total, billing.Subscription.Public))
}

func (s *Server) getSubscription(c *gin.Context) {
	rec, err := s.Subscriptions.Get(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Subscription", rec)
}

func (s *Server) cancelSubscription(c *gin.Context) {
	rec, err := s.Subscriptions.Cancel(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Subscription canceled", rec)
}
