package service

import (
	"context"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
	"go.temporal.io/sdk/client"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/dispatch"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/webhook"
	"github.com/jangada/jangada/workflows"
)

// Webhooks manages webhook endpoints and, for operators, their deliveries.
type Webhooks struct {
	DB *sqlx.DB
	// AllowPrivate lets endpoints point to private and loopback addresses (dev).
	AllowPrivate bool
	// Temporal and Queue start an operator's redelivery (the webhook task
	// queue); nil only where no redelivery is asked for (tests).
	Temporal client.Client
	Queue    string
}

// Create stores an endpoint with a fresh secret (returned once, in the
// answer); keyID nil makes a dashboard endpoint, which receives the whole
// account's events, for an account the operator names (not found if it
// does not exist).
func (s *Webhooks) Create(ctx context.Context, accountID string, keyID *string, p domain.EndpointPatch) (db.WebhookEndpoint, error) {
	if keyID == nil {
		acct, err := db.GetAccount(ctx, s.DB, accountID)
		if err != nil {
			return db.WebhookEndpoint{}, err
		}
		accountID = acct.ID
	}
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

// List is one page of the live endpoints in scope.
func (s *Webhooks) List(ctx context.Context, scope db.EndpointScope, page, pageSize int) ([]db.WebhookEndpoint, int, error) {
	return db.ListEndpoints(ctx, s.DB, scope, page, pageSize)
}

// Get reads one live endpoint in scope.
func (s *Webhooks) Get(ctx context.Context, scope db.EndpointScope, id string) (db.WebhookEndpoint, error) {
	return db.GetEndpoint(ctx, s.DB, scope, id)
}

// Delete deletes a live endpoint in scope (its delivery history stays).
func (s *Webhooks) Delete(ctx context.Context, scope db.EndpointScope, id string) error {
	return db.DeleteEndpoint(ctx, s.DB, scope, id)
}

// Deliveries is one page of an endpoint's delivery history, newest first,
// each delivery with its attempts; status (in any case) "" means any. An
// endpoint never created is not found; a deleted one keeps its history.
func (s *Webhooks) Deliveries(ctx context.Context, endpointID, status string, page, pageSize int) ([]db.Delivery, int, error) {
	status = strings.ToUpper(status)
	switch status {
	case "", db.DeliveryPending, db.DeliveryDelivered, db.DeliveryFailed, db.DeliveryCanceled:
	default:
		return nil, 0, domain.Invalid("status", "must be PENDING, DELIVERED, FAILED or CANCELED")
	}
	if exists, err := db.EndpointExists(ctx, s.DB, endpointID); err != nil || !exists {
		if err == nil {
			err = domain.NotFound("webhook endpoint")
		}
		return nil, 0, err
	}
	return db.ListDeliveries(ctx, s.DB, endpointID, status, page, pageSize)
}

// Delivery reads one delivery with its attempts.
func (s *Webhooks) Delivery(ctx context.Context, id string) (db.Delivery, error) {
	return db.GetDelivery(ctx, s.DB, id)
}

// Redelivery is a manual run of a delivery: which run, and its workflow.
type Redelivery struct {
	DeliveryID string
	Run        int
	WorkflowID string
}

// Redeliver sends a delivery once more, now, with the same delivery id
// (receivers deduplicate on it), whatever its status; the attempt joins the
// delivery's history as a manual run.
func (s *Webhooks) Redeliver(ctx context.Context, id string) (Redelivery, error) {
	d, err := db.BeginRedelivery(ctx, s.DB, id)
	if err != nil {
		return Redelivery{}, err
	}
	in := workflows.WebhookInput{DeliveryID: d.ID, FirstAttempt: 1, Run: d.Redeliveries}
	if err := dispatch.StartDelivery(ctx, s.Temporal, s.Queue, d, in, false); err != nil {
		return Redelivery{}, fmt.Errorf("%w: start redelivery: %v", domain.ErrUnavailable, err)
	}
	return Redelivery{DeliveryID: d.ID, Run: d.Redeliveries, WorkflowID: workflows.WebhookWorkflowID(d.ID, d.Redeliveries)}, nil
}
