package api

import (
	"fmt"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/dispatch"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/workflows"
)

// adminCreateWebhook makes a dashboard endpoint: it receives every event
// of the account, whichever key (or none) caused it.
func (s *Server) adminCreateWebhook(c *gin.Context) {
	acct, err := db.GetAccount(c.Request.Context(), s.db, c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	s.newEndpoint(c, acct.ID, nil)
}

func (s *Server) adminListWebhooks(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := db.ListEndpoints(c.Request.Context(), s.db, db.EndpointScope{AccountID: c.Param("id")}, f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook endpoints", pageOf(rows, f, total, viewWebhook))
}

// adminDeliveries is an endpoint's delivery history, newest first, each
// delivery with its attempts (time, status code, latency, error).
func (s *Server) adminDeliveries(c *gin.Context) {
	ctx := c.Request.Context()
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	status := strings.ToUpper(c.Query("status"))
	switch status {
	case "", db.DeliveryPending, db.DeliveryDelivered, db.DeliveryFailed, db.DeliveryCanceled:
	default:
		fail(c, domain.Invalid("status", "must be PENDING, DELIVERED, FAILED or CANCELED"))
		return
	}
	if exists, err := db.EndpointExists(ctx, s.db, c.Param("id")); err != nil || !exists {
		if err == nil {
			err = domain.NotFound("webhook endpoint")
		}
		fail(c, err)
		return
	}
	rows, total, err := db.ListDeliveries(ctx, s.db, c.Param("id"), status, f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook deliveries", pageOf(rows, f, total, func(d db.Delivery) db.Delivery { return d }))
}

func (s *Server) adminGetDelivery(c *gin.Context) {
	d, err := db.GetDelivery(c.Request.Context(), s.db, c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook delivery", d)
}

// adminRedeliver sends a delivery once more, now, with the same delivery id
// (receivers deduplicate on it), whatever its status; the attempt joins the
// delivery's history as a manual run.
func (s *Server) adminRedeliver(c *gin.Context) {
	ctx := c.Request.Context()
	d, err := db.BeginRedelivery(ctx, s.db, c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	in := workflows.WebhookInput{DeliveryID: d.ID, FirstAttempt: 1, Run: d.Redeliveries}
	if err := dispatch.StartDelivery(ctx, s.Temporal, s.cfg.WebhookQueue(), d, in, false); err != nil {
		fail(c, fmt.Errorf("%w: start redelivery: %v", domain.ErrUnavailable, err))
		return
	}
	ok(c, "Redelivery started", gin.H{"deliveryId": d.ID, "run": d.Redeliveries, "workflowId": workflows.WebhookWorkflowID(d.ID, d.Redeliveries)})
}
