package api

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/service"
)

// The dashboard's lists of the products that are not statement lines of
// their own: billings and checkout sessions.

// dashBillings is one page of the account's billings, filtered by status
// and method, newest first.
func (s *Server) dashBillings(c *gin.Context) {
	page, err := intParam(c, "page", 1, 1, 1_000_000)
	if err != nil {
		dashFail(c, err)
		return
	}
	f := service.BillingFilter{Page: page, PageSize: 50}
	if f.Status, err = domain.OneOf("status", strings.ToUpper(c.Query("status")), billing.BillingStatuses...); err != nil {
		dashFail(c, err)
		return
	}
	if f.Method, err = domain.OneOf("method", strings.ToUpper(c.Query("method")), domain.BillingMethods...); err != nil {
		dashFail(c, err)
		return
	}
	rows, total, err := s.Dashboard.Billings(c.Request.Context(), userOf(c), f)
	if err != nil {
		dashFail(c, err)
		return
	}
	dashRender(c, http.StatusOK, "dashboard_billings.html", "Cobranças", dashPage{Billings: rows, Statuses: billing.BillingStatuses,
		Methods: domain.BillingMethods,
		Filter:  dashFilter{Status: f.Status, Type: f.Method, Page: page, Pages: max(1, (total+49)/50)}})
}

// dashCheckouts is one page of the account's checkout sessions, filtered
// by status, newest first.
func (s *Server) dashCheckouts(c *gin.Context) {
	page, err := intParam(c, "page", 1, 1, 1_000_000)
	if err != nil {
		dashFail(c, err)
		return
	}
	status, err := domain.OneOf("status", strings.ToUpper(c.Query("status")), checkout.SessionOpen, checkout.SessionPaid, checkout.SessionExpired)
	if err != nil {
		dashFail(c, err)
		return
	}
	rows, total, err := s.Dashboard.Checkouts(c.Request.Context(), userOf(c), status, page)
	if err != nil {
		dashFail(c, err)
		return
	}
	dashRender(c, http.StatusOK, "dashboard_checkouts.html", "Checkouts", dashPage{Checkouts: rows,
		Statuses: []string{checkout.SessionOpen, checkout.SessionPaid, checkout.SessionExpired},
		Filter:   dashFilter{Status: status, Page: page, Pages: max(1, (total+49)/50)}})
}

// dashRollWebhookSecret gives an endpoint a new whsec_ secret and shows it
// this once on the endpoint's page.
func (s *Server) dashRollWebhookSecret(c *gin.Context) {
	e, err := s.Dashboard.RollEndpointSecret(c.Request.Context(), userOf(c), c.Param("id"))
	if err != nil {
		dashFail(c, err)
		return
	}
	s.renderWebhook(c, e.ID, e.Secret)
}
