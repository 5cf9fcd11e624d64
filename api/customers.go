package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

//go:generate go tool mockgen -destination=apimock/customers.go -package=apimock . Customers

// Customers manages the store's customers.
type Customers interface {
	Create(ctx context.Context, acct domain.Account, p store.CustomerPatch) (store.Customer, error)
	Get(ctx context.Context, acct domain.Account, id string) (store.Customer, error)
	List(ctx context.Context, acct domain.Account, f store.CustomerFilter) ([]store.Customer, int, error)
	Update(ctx context.Context, acct domain.Account, id string, p store.CustomerPatch) (store.Customer, error)
	Delete(ctx context.Context, acct domain.Account, id string) error
}

// The customer routes (spec "Store"; the list's type filter from
// CONTRACTS.md). A customer's public form is domain.Customer itself.

func (s *Server) createCustomer(c *gin.Context) {
	bindAndAct[store.CustomerPatch, store.CustomerRequest](c, "Customer created", func(p store.CustomerPatch) (any, error) {
		p.IdempotencyKey = idempotencyKey(c)
		return s.Customers.Create(c.Request.Context(), accountOf(c), p)
	})
}

func (s *Server) getCustomer(c *gin.Context) {
	cu, err := s.Customers.Get(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Customer", cu)
}

func (s *Server) listCustomers(c *gin.Context) {
	pg, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	f, err := store.NewCustomerFilter(pg.Page, pg.PageSize, c.Query("search"), c.Query("status"), c.Query("type"))
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Customers.List(c.Request.Context(), accountOf(c), f)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Customers", pageOf(rows, pg, total, func(cu store.Customer) store.Customer { return cu }))
}

func (s *Server) updateCustomer(c *gin.Context) {
	bindAndAct[store.CustomerPatch, store.CustomerUpdateRequest](c, "Customer updated", func(p store.CustomerPatch) (any, error) {
		return s.Customers.Update(c.Request.Context(), accountOf(c), c.Param("id"), p)
	})
}

func (s *Server) deleteCustomer(c *gin.Context) {
	if err := s.Customers.Delete(c.Request.Context(), accountOf(c), c.Param("id")); err != nil {
		fail(c, err)
		return
	}
	ok(c, "Customer deleted", deleted{ID: c.Param("id"), Deleted: true})
}
