package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/service"
)

// adminCreateWebhook makes a dashboard endpoint: it receives every event
// of the account, whichever key (or none) caused it.
func (s *Server) adminCreateWebhook(c *gin.Context) {
	s.newEndpoint(c, c.Param("id"), nil)
}

func (s *Server) adminListWebhooks(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Webhooks.List(c.Request.Context(), service.EndpointScope{AccountID: c.Param("id")}, f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook endpoints", pageOf(rows, f, total, viewWebhook))
}

// adminDeliveries is an endpoint's delivery history, newest first, each
// delivery with its attempts (time, status code, latency, error).
func (s *Server) adminDeliveries(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Webhooks.Deliveries(c.Request.Context(), c.Param("id"), c.Query("status"), f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook deliveries", pageOf(rows, f, total, func(d service.Delivery) service.Delivery { return d }))
}

func (s *Server) adminGetDelivery(c *gin.Context) {
	d, err := s.Webhooks.Delivery(c.Request.Context(), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Webhook delivery", d)
}

// redelivery answers a redelivery: the delivery, its run number and the
// workflow that sends it.
type redelivery struct {
	DeliveryID string `json:"deliveryId"`
	Run        int    `json:"run"`
	WorkflowID string `json:"workflowId"`
}

// adminRedeliver sends a delivery once more, now, with the same delivery id
// (receivers deduplicate on it), whatever its status; the attempt joins the
// delivery's history as a manual run.
func (s *Server) adminRedeliver(c *gin.Context) {
	r, err := s.Webhooks.Redeliver(c.Request.Context(), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Redelivery started", redelivery{DeliveryID: r.DeliveryID, Run: r.Run, WorkflowID: r.WorkflowID})
}

// adminTestWebhook sends a webhook.test event to one endpoint through the
// normal delivery machinery (signed, recorded in its delivery history);
// the event's data is the trigger's metadata.
func (s *Server) adminTestWebhook(c *gin.Context) {
	r, err := s.Webhooks.Test(c.Request.Context(), c.Param("id"), requestID(c))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Test event sent", r)
}
