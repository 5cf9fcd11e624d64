package service

import (
	"context"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/dashboard"
)

// What a developer, an admin or the owner manages in the dashboard: the
// account's API keys and its webhook endpoints. Each use case checks the
// role, scopes every id to the user's account (another account's is not
// found) and writes the audit log.

// MaxKeyGrace is the longest a rolled key stays valid beside its new one.
const MaxKeyGrace = 24 * time.Hour

// Keys is the account's keys with their last use (revoked ones for a day).
func (s *Dashboard) Keys(ctx context.Context, u DashboardUser) ([]db.ListedKey, error) {
	if err := may(u, dashboard.ManageIntegration); err != nil {
		return nil, err
	}
	return db.ListKeys(ctx, s.DB, u.Account.ID)
}

// CreateKey issues a key for the account: the secret is answered once.
func (s *Dashboard) CreateKey(ctx context.Context, u DashboardUser, n domain.NewKey) (domain.APIKey, string, error) {
	if err := may(u, dashboard.ManageIntegration); err != nil {
		return domain.APIKey{}, "", err
	}
	if n.RateLimitPerMinute == 0 {
		n.RateLimitPerMinute = s.RateLimitPerMinute
	}
	k, secret, err := NewKey(ctx, s.DB, u.Account.ID, n)
	if err != nil {
		return k, "", err
	}
	return k, secret, s.audit(ctx, u, "key.create", k.ID+" "+k.Name)
}

// RevokeKey revokes one of the account's keys now: the API refuses it at
// once and its WebSocket connections close.
func (s *Dashboard) RevokeKey(ctx context.Context, u DashboardUser, id string) (domain.APIKey, error) {
	if err := may(u, dashboard.ManageIntegration); err != nil {
		return domain.APIKey{}, err
	}
	if _, err := db.AccountKey(ctx, s.DB, u.Account.ID, id); err != nil {
		return domain.APIKey{}, err
	}
	k, err := db.RevokeKey(ctx, s.DB, id)
	if err != nil {
		return k, err
	}
	if s.KeyRevoked != nil {
		s.KeyRevoked(k.ID)
	}
	return k, s.audit(ctx, u, "key.revoke", k.ID+" "+k.Name)
}

// RollKey makes a new key with the same name, permissions, allowlist and
// budget, and keeps the old one valid for grace (at most MaxKeyGrace; 0
// ends it now): the integration swaps secrets without a moment refused.
func (s *Dashboard) RollKey(ctx context.Context, u DashboardUser, id string, grace time.Duration) (domain.APIKey, string, error) {
	if err := may(u, dashboard.ManageIntegration); err != nil {
		return domain.APIKey{}, "", err
	}
	if grace < 0 || grace > MaxKeyGrace {
		return domain.APIKey{}, "", domain.Invalid("grace", "must be from 0 to 24 hours")
	}
	old, err := db.AccountKey(ctx, s.DB, u.Account.ID, id)
	if err != nil {
		return domain.APIKey{}, "", err
	}
	if old.RevokedAt != nil && !old.RevokedAt.After(s.now()) {
		return domain.APIKey{}, "", domain.Invalid("id", "names a revoked key")
	}
	k, secret, err := NewKey(ctx, s.DB, u.Account.ID, domain.NewKey{Name: old.Name, Permissions: old.Permissions,
		IPAllowlist: old.IPAllowlist, RateLimitPerMinute: old.RateLimitPerMinute})
	if err != nil {
		return k, "", err
	}
	if grace == 0 {
		if _, err := s.RevokeKey(ctx, u, old.ID); err != nil {
			return k, "", err
		}
	} else if err := db.RetireKey(ctx, s.DB, old.ID, s.now().Add(grace)); err != nil {
		return k, "", err
	}
	return k, secret, s.audit(ctx, u, "key.roll", old.ID+" → "+k.ID+" (grace "+grace.String()+")")
}

// scope is the user's account's endpoints, whichever key made them.
func scope(u DashboardUser) db.EndpointScope { return db.EndpointScope{AccountID: u.Account.ID} }

// Endpoints is the account's live endpoints.
func (s *Dashboard) Endpoints(ctx context.Context, u DashboardUser) ([]db.WebhookEndpoint, error) {
	if err := may(u, dashboard.ManageIntegration); err != nil {
		return nil, err
	}
	es, _, err := s.Webhooks.List(ctx, scope(u), 1, domain.MaxEndpoints)
	return es, err
}

// Endpoint is one of the account's live endpoints.
func (s *Dashboard) Endpoint(ctx context.Context, u DashboardUser, id string) (db.WebhookEndpoint, error) {
	if err := may(u, dashboard.ManageIntegration); err != nil {
		return db.WebhookEndpoint{}, err
	}
	return s.Webhooks.Get(ctx, scope(u), id)
}

// CreateEndpoint makes an endpoint of the whole account (it receives
// every event it subscribes, whichever key caused it); its secret is
// answered once.
func (s *Dashboard) CreateEndpoint(ctx context.Context, u DashboardUser, p domain.EndpointPatch) (db.WebhookEndpoint, error) {
	if err := may(u, dashboard.ManageIntegration); err != nil {
		return db.WebhookEndpoint{}, err
	}
	e, err := s.Webhooks.Create(ctx, u.Account.ID, nil, p)
	if err != nil {
		return e, err
	}
	return e, s.audit(ctx, u, "webhook.create", e.ID+" "+e.URL)
}

// SetEndpointStatus disables or re-enables one of the account's endpoints.
func (s *Dashboard) SetEndpointStatus(ctx context.Context, u DashboardUser, id, status string) error {
	if err := may(u, dashboard.ManageIntegration); err != nil {
		return err
	}
	if status != domain.EndpointActive && status != domain.EndpointDisabled {
		return domain.Invalid("status", "must be %s or %s", domain.EndpointActive, domain.EndpointDisabled)
	}
	if _, err := s.Webhooks.Update(ctx, scope(u), id, domain.EndpointPatch{Status: &status}); err != nil {
		return err
	}
	return s.audit(ctx, u, "webhook.status", id+" "+status)
}

// DeleteEndpoint deletes one of the account's endpoints (its deliveries
// stay readable to the operators).
func (s *Dashboard) DeleteEndpoint(ctx context.Context, u DashboardUser, id string) error {
	if err := may(u, dashboard.ManageIntegration); err != nil {
		return err
	}
	if err := s.Webhooks.Delete(ctx, scope(u), id); err != nil {
		return err
	}
	return s.audit(ctx, u, "webhook.delete", id)
}

// TestEndpoint sends a webhook.test event to one of the account's
// endpoints only, through the normal delivery machinery.
func (s *Dashboard) TestEndpoint(ctx context.Context, u DashboardUser, id, requestID string) (SentTest, error) {
	if _, err := s.Endpoint(ctx, u, id); err != nil {
		return SentTest{}, err
	}
	t, err := s.Webhooks.Test(ctx, id, requestID)
	if err != nil {
		return t, err
	}
	return t, s.audit(ctx, u, "webhook.test", id)
}

// Deliveries is one page of an endpoint's deliveries with every attempt.
func (s *Dashboard) Deliveries(ctx context.Context, u DashboardUser, id string, page int) ([]db.Delivery, int, error) {
	if _, err := s.Endpoint(ctx, u, id); err != nil {
		return nil, 0, err
	}
	return s.Webhooks.Deliveries(ctx, id, "", page, 20)
}

// Resend sends one of the account's deliveries once more, under the same
// delivery id (a new attempt in its history).
func (s *Dashboard) Resend(ctx context.Context, u DashboardUser, deliveryID string) (Redelivery, error) {
	if err := may(u, dashboard.ManageIntegration); err != nil {
		return Redelivery{}, err
	}
	d, err := s.Webhooks.Delivery(ctx, deliveryID)
	if err != nil {
		return Redelivery{}, err
	}
	if d.AccountID != u.Account.ID {
		return Redelivery{}, domain.NotFound("delivery")
	}
	r, err := s.Webhooks.Redeliver(ctx, deliveryID)
	if err != nil {
		return r, err
	}
	return r, s.audit(ctx, u, "webhook.resend", deliveryID)
}
