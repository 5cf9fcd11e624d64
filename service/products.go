package service

import (
	"context"
	"errors"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

// Products manages the store's products and their deliveries (spec
// "Store"). Synchronous: no money moves, no workflow. A sale hands out a
// TEXT_LINES line through db.TakeProductLine, in the paid transition of
// the checkout session that sold it.
type Products struct {
	DB *sqlx.DB
}

// Create stores a product with its TEXT_LINES stock. A retry under the
// same Idempotency-Key finds the product its first attempt made before the
// sku's uniqueness is checked.
func (s *Products) Create(ctx context.Context, acct domain.Account, p store.ProductPatch) (store.Product, error) {
	id := newID("prod_", acct.ID, "product", p.IdempotencyKey)
	if p.IdempotencyKey != "" {
		if found, err := db.GetProduct(ctx, s.DB, acct.ID, id); !errors.Is(err, domain.ErrNotFound) {
			if err == nil {
				err = ownsKey(ctx, found.CreatedAt.Time)
			}
			return found, err
		}
	}
	prod := store.Product{ID: id, AccountID: acct.ID}.Apply(p)
	var lines []string
	if p.Lines != nil {
		lines = *p.Lines
	}
	var out store.Product
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		var err error
		out, err = db.InsertProduct(ctx, tx, prod, lines)
		return err
	})
	return out, err
}

// Get reads one of the account's products.
func (s *Products) Get(ctx context.Context, acct domain.Account, id string) (store.Product, error) {
	return db.GetProduct(ctx, s.DB, acct.ID, id)
}

// List is one page of the account's products that f selects.
func (s *Products) List(ctx context.Context, acct domain.Account, f store.ProductFilter) ([]store.Product, int, error) {
	return db.ListProducts(ctx, s.DB, acct.ID, f)
}

// Update applies p to one of the account's products.
func (s *Products) Update(ctx context.Context, acct domain.Account, id string, p store.ProductPatch) (store.Product, error) {
	return db.UpdateProduct(ctx, s.DB, acct.ID, id, p)
}

// Delete deletes one of the account's products (its sales keep it).
func (s *Products) Delete(ctx context.Context, acct domain.Account, id string) error {
	return db.DeleteProduct(ctx, s.DB, acct.ID, id)
}
