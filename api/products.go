package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

//go:generate go tool mockgen -destination=apimock/products.go -package=apimock . Products

// Products manages the store's products and their deliveries.
type Products interface {
	Create(ctx context.Context, acct domain.Account, p store.ProductPatch) (store.Product, error)
	Get(ctx context.Context, acct domain.Account, id string) (store.Product, error)
	List(ctx context.Context, acct domain.Account, f store.ProductFilter) ([]store.Product, int, error)
	Update(ctx context.Context, acct domain.Account, id string, p store.ProductPatch) (store.Product, error)
	Delete(ctx context.Context, acct domain.Account, id string) error
}

// The product routes (spec "Store"; the list's filters from CONTRACTS.md).

func (s *Server) createProduct(c *gin.Context) {
	bindAndAct[store.ProductPatch, store.ProductRequest](c, "Product created", func(p store.ProductPatch) (any, error) {
		p.IdempotencyKey = idempotencyKey(c)
		out, err := s.Products.Create(c.Request.Context(), accountOf(c), p)
		return out.Public(), err
	})
}

func (s *Server) getProduct(c *gin.Context) {
	p, err := s.Products.Get(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Product", p.Public())
}

func (s *Server) listProducts(c *gin.Context) {
	pg, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	f, err := store.NewProductFilter(pg.Page, pg.PageSize, c.Query("search"), c.Query("status"))
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Products.List(c.Request.Context(), accountOf(c), f)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Products", pageOf(rows, pg, total, store.Product.Public))
}

func (s *Server) updateProduct(c *gin.Context) {
	bindAndAct[store.ProductPatch, store.ProductUpdateRequest](c, "Product updated", func(p store.ProductPatch) (any, error) {
		out, err := s.Products.Update(c.Request.Context(), accountOf(c), c.Param("id"), p)
		return out.Public(), err
	})
}

func (s *Server) deleteProduct(c *gin.Context) {
	if err := s.Products.Delete(c.Request.Context(), accountOf(c), c.Param("id")); err != nil {
		fail(c, err)
		return
	}
	ok(c, "Product deleted", deleted{ID: c.Param("id"), Deleted: true})
}
