package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/billings.go -package=apimock . Billings

// Billings creates, reads and refunds billings, tokenizes cards, and
// serves a billing's public page (boleto slip, debit card invoice).
type Billings interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in billing.NewBilling) (service.CreatedBilling, error)
	TokenizeCard(ctx context.Context, acct domain.Account, in billing.NewCardToken) (service.CardTokenView, error)
	Get(ctx context.Context, acct domain.Account, idOrExternal string) (service.CreatedBilling, error)
	List(ctx context.Context, acct domain.Account, f service.BillingFilter) ([]billing.Billing, int, error)
	Refund(ctx context.Context, acct domain.Account, in billing.NewBillingRefund) (billing.Billing, error)
	Page(ctx context.Context, token string) (service.CreatedBilling, error)
	// PayInvoice pays a debit card billing on its hosted invoice page.
	PayInvoice(ctx context.Context, token string, in billing.NewInvoicePayment) (service.CreatedBilling, error)
}

// billingView is a billing as the API shows it.

// BillingsSandbox simulates a billing paid or past its due date.
type BillingsSandbox interface {
	PayBilling(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	OverdueBilling(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
}

func (s *Server) billingView(b service.CreatedBilling) billing.PublicBilling {
	return b.Billing.Public(s.cfg.PublicURL, b.PixImage)
}

func (s *Server) createBilling(c *gin.Context) {
	bindAndAct[billing.NewBilling, billing.BillingRequest](c, "Billing created", func(req billing.NewBilling) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		if req.RemoteIP == "" {
			req.RemoteIP = c.ClientIP() // the spec's default: the request's IP
		}
		b, err := s.Billings.Create(c.Request.Context(), accountOf(c), keyOf(c), req)
		if err != nil {
			return nil, err
		}
		return s.billingView(b), nil
	})
}

func (s *Server) tokenizeCard(c *gin.Context) {
	bindAndAct[billing.NewCardToken, billing.TokenizeCardRequest](c, "Card tokenized", func(req billing.NewCardToken) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		if req.RemoteIP == "" {
			req.RemoteIP = c.ClientIP()
		}
		return s.Billings.TokenizeCard(c.Request.Context(), accountOf(c), req)
	})
}

func (s *Server) getBilling(c *gin.Context) {
	b, err := s.Billings.Get(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Billing", s.billingView(b))
}

func (s *Server) listBillings(c *gin.Context) {
	p, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	f := service.BillingFilter{Page: p.Page, PageSize: p.PageSize, CustomerID: c.Query("customerId"), ExternalReference: c.Query("externalReference")}
	if f.Status, err = domain.OneOf("status", c.Query("status"), billing.BillingStatuses...); err != nil {
		fail(c, err)
		return
	}
	if v := c.Query("method"); v != "" {
		if f.Method, err = billing.BillingMethod("method", &v); err != nil {
			fail(c, err)
			return
		}
	}
	if f.DateFrom, err = timeParam(c, "dateFrom", false); err != nil {
		fail(c, err)
		return
	}
	if f.DateTo, err = timeParam(c, "dateTo", true); err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Billings.List(c.Request.Context(), accountOf(c), f)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Billings", pageOf(rows, service.ListFilter{Page: f.Page, PageSize: f.PageSize}, total, func(b billing.Billing) billing.PublicBilling {
		return b.Public(s.cfg.PublicURL, "")
	}))
}

func (s *Server) refundBilling(c *gin.Context) {
	bindAndAct[billing.NewBillingRefund, billing.BillingRefundRequest](c, "Billing refunded", func(req billing.NewBillingRefund) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		b, err := s.Billings.Refund(c.Request.Context(), accountOf(c), req)
		if err != nil {
			return nil, err
		}
		return b.Public(s.cfg.PublicURL, ""), nil
	})
}

func (s *Server) sandboxBillingPay(c *gin.Context) {
	r, err := s.Sandbox.PayBilling(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}

func (s *Server) sandboxBillingOverdue(c *gin.Context) {
	r, err := s.Sandbox.OverdueBilling(c.Request.Context(), accountOf(c), c.Param("id"))
	simulated(c, r, err)
}
