package api

import (
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/dispatch"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/webhook"
)

// maxEndpoints bounds the webhook endpoints of one account.
const maxEndpoints = 16

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

type createdWebhook struct {
	webhookView
	Secret string `json:"secret"`
}

func viewWebhook(e db.WebhookEndpoint) webhookView {
	scope := "key"
	if e.APIKeyID == nil {
		scope = "account"
	}
	return webhookView{ID: e.ID, URL: e.URL, Events: []string(e.Events), Description: e.Description, Status: e.Status,
		Scope: scope, APIKeyID: e.APIKeyID, CreatedAt: e.CreatedAt}
}

type webhookBody struct {
	URL         *string  `json:"url"`
	Events      []string `json:"events"`
	Description *string  `json:"description"`
	Status      *string  `json:"status"`
}

// validate checks the body; on create every required field must be there,
// on update only what is sent is checked.
func (s *Server) validateWebhook(b webhookBody, create bool) (db.EndpointPatch, error) {
	var p db.EndpointPatch
	if b.URL != nil || create {
		u, err := domain.Text("url", b.URL, 1, 2048, true)
		if err != nil {
			return p, err
		}
		if err := webhook.CheckURL(u, s.cfg.WebhookAllowPrivate); err != nil {
			return p, domain.Invalid("url", "%s", err.Error())
		}
		p.URL = &u
	}
	if b.Events != nil || create {
		evs, err := webhookEvents(b.Events)
		if err != nil {
			return p, err
		}
		p.Events = evs
	}
	if b.Description != nil {
		d, err := domain.Text("description", b.Description, 0, 255, false)
		if err != nil {
			return p, err
		}
		p.Description = &d
	}
	if b.Status != nil {
		st := strings.ToUpper(strings.TrimSpace(*b.Status))
		if st != db.EndpointActive && st != db.EndpointDisabled {
			return p, domain.Invalid("status", "must be ACTIVE or DISABLED")
		}
		p.Status = &st
	}
	return p, nil
}

// webhookEvents checks an events list: catalog event types or patterns
// matching at least one ("*", "payment.*"), deduplicated in order.
func webhookEvents(list []string) ([]string, error) {
	if len(list) == 0 {
		return nil, domain.Invalid("events", "must list at least one event type or pattern (such as payment.paid, payment.* or *)")
	}
	if len(list) > 50 {
		return nil, domain.Invalid("events", "must list at most 50 entries")
	}
	seen := map[string]bool{}
	out := []string{}
	for _, e := range list {
		e = strings.TrimSpace(e)
		if !dispatch.KnownPattern(e) {
			return nil, domain.Invalid("events", "has %q, which is not an event of the catalog nor a pattern matching one", e)
		}
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out, nil
}

// newEndpoint stores an endpoint; keyID nil makes a dashboard endpoint.
func (s *Server) newEndpoint(c *gin.Context, accountID string, keyID *string) {
	var b webhookBody
	if err := bind(c, &b); err != nil {
		fail(c, err)
		return
	}
	p, err := s.validateWebhook(b, true)
	if err != nil {
		fail(c, err)
		return
	}
	status := db.EndpointActive
	if p.Status != nil {
		status = *p.Status
	}
	desc := ""
	if p.Description != nil {
		desc = *p.Description
	}
	e, err := db.CreateEndpoint(c.Request.Context(), s.db, db.WebhookEndpoint{
		ID: domain.NewID("whe_"), AccountID: accountID, APIKeyID: keyID,
		URL: *p.URL, Events: p.Events, Description: desc, Status: status, Secret: webhook.NewSecret(),
	}, maxEndpoints)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook endpoint created; the secret is shown only now", createdWebhook{webhookView: viewWebhook(e), Secret: e.Secret})
}

// createWebhook binds the endpoint to the calling key: it receives the
// events of transactions that key creates.
func (s *Server) createWebhook(c *gin.Context) {
	k := keyOf(c)
	s.newEndpoint(c, accountOf(c).ID, &k.ID)
}

// listWebhooks lists every endpoint of the account (whichever key made it,
// so that endpoints of a rotated key stay manageable).
func (s *Server) listWebhooks(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := db.ListEndpoints(c.Request.Context(), s.db, accountOf(c).ID, f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook endpoints", pageOf(rows, f, total, viewWebhook))
}

func (s *Server) getWebhook(c *gin.Context) {
	e, err := db.GetEndpoint(c.Request.Context(), s.db, accountOf(c).ID, c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook endpoint", viewWebhook(e))
}

func (s *Server) updateWebhook(c *gin.Context) {
	var b webhookBody
	if err := bind(c, &b); err != nil {
		fail(c, err)
		return
	}
	p, err := s.validateWebhook(b, false)
	if err != nil {
		fail(c, err)
		return
	}
	e, err := db.UpdateEndpoint(c.Request.Context(), s.db, accountOf(c).ID, c.Param("id"), p)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook endpoint updated", viewWebhook(e))
}

func (s *Server) deleteWebhook(c *gin.Context) {
	if err := db.DeleteEndpoint(c.Request.Context(), s.db, accountOf(c).ID, c.Param("id")); err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook endpoint deleted", gin.H{"id": c.Param("id"), "deleted": true})
}
