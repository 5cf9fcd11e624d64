package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/webhooks.go -package=apimock . Webhooks

// Webhooks manages webhook endpoints.
type Webhooks interface {
	Create(ctx context.Context, accountID string, keyID *string, p domain.EndpointPatch) (service.WebhookEndpoint, error)
	Update(ctx context.Context, scope service.EndpointScope, id string, p domain.EndpointPatch) (service.WebhookEndpoint, error)
	List(ctx context.Context, scope service.EndpointScope, page, pageSize int) ([]service.WebhookEndpoint, int, error)
	Get(ctx context.Context, scope service.EndpointScope, id string) (service.WebhookEndpoint, error)
	Delete(ctx context.Context, scope service.EndpointScope, id string) error
	// Deliveries, Delivery and Redeliver are the operators' view of an
	// endpoint's delivery history (admin API).
	Deliveries(ctx context.Context, endpointID, status string, page, pageSize int) ([]service.Delivery, int, error)
	Delivery(ctx context.Context, id string) (service.Delivery, error)
	Redeliver(ctx context.Context, id string) (service.Redelivery, error)
	// Test sends a webhook.test event to one endpoint (admin API).
	Test(ctx context.Context, endpointID, requestID string) (service.SentTest, error)
}

// webhookView is the public form of an endpoint. The secret appears only in
// the create response (createdWebhook); accountId, updatedAt and delivery
// history are internal.
type webhookView struct {
	ID          string   `json:"id"`
	URL         string   `json:"url"`
	Events      []string `json:"events"`
	Description string   `json:"description"`
	Status      string   `json:"status"`
	// Scope is "key" (receives events of transactions created by APIKeyID)
	// or "account" (a dashboard endpoint: the whole account's events).
	Scope     string      `json:"scope"`
	APIKeyID  *string     `json:"apiKeyId,omitempty"`
	CreatedAt domain.Time `json:"createdAt"`
}

// deleted answers a delete.
type deleted struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

type createdWebhook struct {
	webhookView
	Secret string `json:"secret"`
}

// An endpoint's scope: its key's transactions, or its account's.
const (
	scopeKey     = "key"
	scopeAccount = "account"
)

func viewWebhook(e service.WebhookEndpoint) webhookView {
	scope := scopeKey
	if e.APIKeyID == nil {
		scope = scopeAccount
	}
	return webhookView{ID: e.ID, URL: e.URL, Events: []string(e.Events), Description: e.Description, Status: e.Status,
		Scope: scope, APIKeyID: e.APIKeyID, CreatedAt: e.CreatedAt}
}

// newEndpoint stores an endpoint; keyID nil makes a dashboard endpoint.
func (s *Server) newEndpoint(c *gin.Context, accountID string, keyID *string) {
	bindAndAct[domain.EndpointPatch, domain.EndpointRequest](c, "Webhook endpoint created; the secret is shown only now", func(p domain.EndpointPatch) (any, error) {
		e, err := s.Webhooks.Create(c.Request.Context(), accountID, keyID, p)
		return createdWebhook{webhookView: viewWebhook(e), Secret: e.Secret}, err
	})
}

// createWebhook binds the endpoint to the calling key: it receives the
// events of transactions that key creates.
func (s *Server) createWebhook(c *gin.Context) {
	k := keyOf(c)
	s.newEndpoint(c, accountOf(c).ID, &k.ID)
}

// keyScope is what the calling key may manage: the endpoints it created.
func keyScope(c *gin.Context) service.EndpointScope {
	return service.EndpointScope{AccountID: accountOf(c).ID, KeyID: keyOf(c).ID}
}

// listWebhooks lists the endpoints the calling key created (the dashboard's
// and other keys' endpoints are managed through the admin API).
func (s *Server) listWebhooks(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Webhooks.List(c.Request.Context(), keyScope(c), f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook endpoints", pageOf(rows, f, total, viewWebhook))
}

func (s *Server) getWebhook(c *gin.Context) {
	e, err := s.Webhooks.Get(c.Request.Context(), keyScope(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook endpoint", viewWebhook(e))
}

func (s *Server) updateWebhook(c *gin.Context) {
	var b domain.EndpointRequest
	if err := bind(c, &b); err != nil {
		fail(c, err)
		return
	}
	p, err := b.ValidatePatch()
	if err != nil {
		fail(c, err)
		return
	}
	e, err := s.Webhooks.Update(c.Request.Context(), keyScope(c), c.Param("id"), p)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook endpoint updated", viewWebhook(e))
}

func (s *Server) deleteWebhook(c *gin.Context) {
	if err := s.Webhooks.Delete(c.Request.Context(), keyScope(c), c.Param("id")); err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook endpoint deleted", deleted{ID: c.Param("id"), Deleted: true})
}
