package service

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/webhook"
)

// Webhooks manages webhook endpoints.
type Webhooks struct {
	DB *sqlx.DB
	// AllowPrivate lets endpoints point to private and loopback addresses (dev).
	AllowPrivate bool
}

// Create stores an endpoint with a fresh secret (returned once, in the
// answer); keyID nil makes a dashboard endpoint, which receives the whole
// account's events.
func (s *Webhooks) Create(ctx context.Context, accountID string, keyID *string, p domain.EndpointPatch) (db.WebhookEndpoint, error) {
	if err := s.checkURL(p.URL); err != nil {
		return db.WebhookEndpoint{}, err
	}
	status, desc := domain.EndpointActive, ""
	if p.Status != nil {
		status = *p.Status
	}
	if p.Description != nil {
		desc = *p.Description
	}
	return db.CreateEndpoint(ctx, s.DB, db.WebhookEndpoint{
		ID: domain.NewID("whe_"), AccountID: accountID, APIKeyID: keyID,
		URL: *p.URL, Events: p.Events, Description: desc, Status: status, Secret: webhook.NewSecret(),
	}, domain.MaxEndpoints)
}

// Update applies p to a live endpoint in scope.
func (s *Webhooks) Update(ctx context.Context, scope db.EndpointScope, id string, p domain.EndpointPatch) (db.WebhookEndpoint, error) {
	if err := s.checkURL(p.URL); err != nil {
		return db.WebhookEndpoint{}, err
	}
	return db.UpdateEndpoint(ctx, s.DB, scope, id, p)
}

// checkURL applies the deployment's address policy to a URL being set.
func (s *Webhooks) checkURL(u *string) error {
	if u == nil {
		return nil
	}
	if err := webhook.CheckURL(*u, s.AllowPrivate); err != nil {
		return domain.Invalid("url", "%s", err.Error())
	}
	return nil
}
