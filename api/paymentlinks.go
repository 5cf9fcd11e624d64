package api

import (
	"context"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/paymentlinks.go -package=apimock . PaymentLinks

// PaymentLinks manages payment links.
type PaymentLinks interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, p checkout.LinkPatch) (service.PaymentLink, error)
	Get(ctx context.Context, acct domain.Account, id string) (service.PaymentLink, error)
	List(ctx context.Context, acct domain.Account, status, search string, page, pageSize int) ([]service.PaymentLink, int, error)
	Update(ctx context.Context, acct domain.Account, id string, p checkout.LinkPatch) (service.PaymentLink, error)
	SetStatus(ctx context.Context, acct domain.Account, id, status string) (service.PaymentLink, error)
	Delete(ctx context.Context, acct domain.Account, id string) error
}

// linkView is the public form of a payment link: fixedAmount is absent on
// an open-value link; payPageUrl is the hosted page's absolute address.
type linkView struct {
	ID             string       `json:"id"`
	Name           string       `json:"name"`
	Description    string       `json:"description"`
	AllowedMethods []string     `json:"allowedMethods"`
	FixedAmount    *money.Cents `json:"fixedAmount,omitempty"`
	ProductIDs     []string     `json:"productIds"`
	CustomerMode   string       `json:"customerMode"`
	Status         string       `json:"status"`
	PayPageURL     string       `json:"payPageUrl"`
	CreatedAt      domain.Time  `json:"createdAt"`
}

// Enums are the link's closed sets, the domain's.
func (linkView) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"allowedMethods": domain.Exact(checkout.Methods.Values...),
		"customerMode": domain.Exact(checkout.CustomerModes.Values...), "status": domain.Exact(checkout.LinkStatuses.Values...)}
}

func (s *Server) viewLink(l service.PaymentLink) linkView {
	return linkView{ID: l.ID, Name: l.Name, Description: l.Description, AllowedMethods: []string(l.AllowedMethods),
		FixedAmount: l.FixedAmount, ProductIDs: []string(l.ProductIDs), CustomerMode: l.CustomerMode, Status: l.Status,
		PayPageURL: checkout.PayPageURL(s.cfg.PublicURL, l.ID), CreatedAt: l.CreatedAt}
}

func (s *Server) createLink(c *gin.Context) {
	bindAndAct[checkout.LinkPatch, checkout.PaymentLinkRequest](c, "Payment link created", func(p checkout.LinkPatch) (any, error) {
		p.IdempotencyKey = idempotencyKey(c)
		l, err := s.PaymentLinks.Create(c.Request.Context(), accountOf(c), keyOf(c), p)
		return s.viewLink(l), err
	})
}

func (s *Server) getLink(c *gin.Context) {
	l, err := s.PaymentLinks.Get(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Payment link", s.viewLink(l))
}

func (s *Server) listLinks(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	status, err := domain.OneOf("status", c.Query("status"), checkout.LinkActive, checkout.LinkInactive)
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.PaymentLinks.List(c.Request.Context(), accountOf(c), status, strings.TrimSpace(c.Query("search")), f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Payment links", pageOf(rows, f, total, s.viewLink))
}

func (s *Server) updateLink(c *gin.Context) {
	bindAndAct[checkout.LinkPatch, checkout.PaymentLinkUpdate](c, "Payment link updated", func(p checkout.LinkPatch) (any, error) {
		l, err := s.PaymentLinks.Update(c.Request.Context(), accountOf(c), c.Param("id"), p)
		return s.viewLink(l), err
	})
}

func (s *Server) linkStatus(c *gin.Context) {
	bindAndAct[string, checkout.LinkStatusRequest](c, "Payment link status updated", func(status string) (any, error) {
		l, err := s.PaymentLinks.SetStatus(c.Request.Context(), accountOf(c), c.Param("id"), status)
		return s.viewLink(l), err
	})
}

func (s *Server) deleteLink(c *gin.Context) {
	if err := s.PaymentLinks.Delete(c.Request.Context(), accountOf(c), c.Param("id")); err != nil {
		fail(c, err)
		return
	}
	ok(c, "Payment link deleted", deleted{ID: c.Param("id"), Deleted: true})
}
