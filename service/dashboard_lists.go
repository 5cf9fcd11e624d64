package service

import (
	"context"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/dashboard"
	"github.com/jangada/jangada/webhook"
)

// Billings is one page of the account's billings that f selects.
func (s *Dashboard) Billings(ctx context.Context, u DashboardUser, f BillingFilter) ([]billing.Billing, int, error) {
	if err := may(u, dashboard.ReadMoney); err != nil {
		return nil, 0, err
	}
	return db.ListBillings(ctx, s.DB, u.Account.ID, f)
}

// Checkouts is one page of the account's checkout sessions in status
// ("" for any), newest first.
func (s *Dashboard) Checkouts(ctx context.Context, u DashboardUser, status string, page int) ([]checkout.CheckoutSession, int, error) {
	if err := may(u, dashboard.ReadMoney); err != nil {
		return nil, 0, err
	}
	return db.ListSessions(ctx, s.DB, u.Account.ID, status, page, 50)
}

// RollEndpointSecret gives one of the account's endpoints a new whsec_
// secret, answered once: its next attempts are signed with it.
func (s *Dashboard) RollEndpointSecret(ctx context.Context, u DashboardUser, id string) (WebhookEndpoint, error) {
	if err := may(u, dashboard.ManageIntegration); err != nil {
		return WebhookEndpoint{}, err
	}
	e, err := db.RollEndpointSecret(ctx, s.DB, scope(u), id, webhook.NewSecret())
	if err != nil {
		return e, err
	}
	return e, s.audit(ctx, u, "webhook.roll_secret", id)
}
