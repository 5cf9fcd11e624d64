package service

import (
	"context"
	"errors"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

// Customers manages the store's customers (spec "Store"). It is a
// synchronous product: no money moves and nothing outside the database
// takes part, so no workflow. Their transactions and volume are counted by
// the products customers pay through (db.AddCustomerPayment).
type Customers struct {
	DB *sqlx.DB
}

// Create stores a customer. A retry under the same Idempotency-Key finds
// the customer its first attempt made before the document's uniqueness is
// checked (the first attempt took it).
func (s *Customers) Create(ctx context.Context, acct domain.Account, p store.CustomerPatch) (store.Customer, error) {
	id := newID("cus_", acct.ID, "customer", p.IdempotencyKey)
	if p.IdempotencyKey != "" {
		if c, err := db.GetCustomer(ctx, s.DB, acct.ID, id); !errors.Is(err, domain.ErrNotFound) {
			if err == nil {
				err = ownsKey(ctx, c.CreatedAt.Time)
			}
			return c, err
		}
	}
	c, err := store.Customer{ID: id, AccountID: acct.ID}.Apply(p)
	if err != nil {
		return c, err
	}
	return db.InsertCustomer(ctx, s.DB, c)
}

// Get reads one of the account's customers.
func (s *Customers) Get(ctx context.Context, acct domain.Account, id string) (store.Customer, error) {
	return db.GetCustomer(ctx, s.DB, acct.ID, id)
}

// List is one page of the account's customers that f selects.
func (s *Customers) List(ctx context.Context, acct domain.Account, f store.CustomerFilter) ([]store.Customer, int, error) {
	return db.ListCustomers(ctx, s.DB, acct.ID, f)
}

// Update applies p to one of the account's customers.
func (s *Customers) Update(ctx context.Context, acct domain.Account, id string, p store.CustomerPatch) (store.Customer, error) {
	return db.UpdateCustomer(ctx, s.DB, acct.ID, id, p)
}

// Delete deletes one of the account's customers (its payments keep it).
func (s *Customers) Delete(ctx context.Context, acct domain.Account, id string) error {
	return db.DeleteCustomer(ctx, s.DB, acct.ID, id)
}
