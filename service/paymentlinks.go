package service

import (
	"context"
	"errors"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
)

// PaymentLink is a stored payment link (named here for package api).
type PaymentLink = db.PaymentLink

// PaymentLinks manages payment links: the merchant's routes under
// /payment-links (checkouts are Checkouts', service/checkout.go).
type PaymentLinks struct {
	DB *sqlx.DB
}

// Create stores a link for the account, made by key. A retry under the
// same Idempotency-Key finds the link its first attempt stored.
func (s *PaymentLinks) Create(ctx context.Context, acct domain.Account, key domain.APIKey, p checkout.LinkPatch) (PaymentLink, error) {
	id := newID("plink_", acct.ID, "payment-link", p.IdempotencyKey)
	if p.IdempotencyKey != "" {
		l, err := db.GetPaymentLink(ctx, s.DB, acct.ID, id)
		if !errors.Is(err, domain.ErrNotFound) {
			if err == nil {
				err = ownsKey(ctx, l.CreatedAt.Time)
			}
			return l, err
		}
	}
	if err := s.checkProducts(ctx, acct.ID, p.ProductIDs); err != nil {
		return PaymentLink{}, err
	}
	return db.InsertPaymentLink(ctx, s.DB, PaymentLink{
		ID: id, AccountID: acct.ID, APIKeyID: &key.ID, Name: *p.Name, Description: *p.Description,
		AllowedMethods: pq.StringArray(p.AllowedMethods), FixedAmount: p.FixedAmount, ProductIDs: pq.StringArray(p.ProductIDs),
		CustomerMode: *p.CustomerMode, Status: *p.Status,
	})
}

// Get reads a live link of the account.
func (s *PaymentLinks) Get(ctx context.Context, acct domain.Account, id string) (PaymentLink, error) {
	return db.GetPaymentLink(ctx, s.DB, acct.ID, id)
}

// List is one page of the account's live links.
func (s *PaymentLinks) List(ctx context.Context, acct domain.Account, status, search string, page, pageSize int) ([]PaymentLink, int, error) {
	return db.ListPaymentLinks(ctx, s.DB, acct.ID, status, search, page, pageSize)
}

// Update applies p to a live link of the account.
func (s *PaymentLinks) Update(ctx context.Context, acct domain.Account, id string, p checkout.LinkPatch) (PaymentLink, error) {
	if err := s.checkProducts(ctx, acct.ID, p.ProductIDs); err != nil {
		return PaymentLink{}, err
	}
	return db.UpdatePaymentLink(ctx, s.DB, acct.ID, id, p)
}

// SetStatus activates or deactivates a live link of the account: an
// inactive link's page and checkouts are refused, its open sessions can
// still be paid.
func (s *PaymentLinks) SetStatus(ctx context.Context, acct domain.Account, id, status string) (PaymentLink, error) {
	return db.UpdatePaymentLink(ctx, s.DB, acct.ID, id, checkout.LinkPatch{Status: &status})
}

// Delete deletes a live link of the account.
func (s *PaymentLinks) Delete(ctx context.Context, acct domain.Account, id string) error {
	return db.DeletePaymentLink(ctx, s.DB, acct.ID, id)
}

// checkProducts refuses product ids that are not the account's live
// products.
func (s *PaymentLinks) checkProducts(ctx context.Context, accountID string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	missing, err := db.MissingProducts(ctx, s.DB, accountID, ids)
	if err != nil || len(missing) == 0 {
		return err
	}
	return domain.Invalid("productIds", "has ids that are not products of this account: %s", strings.Join(missing, ", "))
}
