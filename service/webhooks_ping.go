package service

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/dispatch"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/webhook"
	"github.com/jangada/jangada/workflows"
)

// TestTrigger is the metadata of a webhook.test: who asked for it and how.
// It is the event's data (the spec: "metadata of the trigger").
type TestTrigger struct {
	EndpointID  string      `json:"endpointId"`
	URL         string      `json:"url"`
	Events      []string    `json:"events"`
	TriggeredBy string      `json:"triggeredBy"`
	RequestID   string      `json:"requestId,omitempty"`
	TriggeredAt domain.Time `json:"triggeredAt"`
}

// SentTest is what a webhook.test started: its event, its delivery and the
// delivery's workflow.
type SentTest struct {
	EventID    string `json:"eventId"`
	DeliveryID string `json:"deliveryId"`
	WorkflowID string `json:"workflowId"`
}

// Test sends a webhook.test event to one endpoint (the operator's button
// in the back office), through the normal delivery machinery: an outbox
// event, a delivery row and a WebhookDeliveryWorkflow, so it is signed,
// recorded like every delivery. The event is written already dispatched, in
// the same transaction as its one delivery: the dispatcher never routes it
// to the account's other endpoints. It is one attempt, like a manual
// redelivery (the operator is watching: the result is in the delivery's
// history at once, not after hours of retries). An endpoint that is not
// ACTIVE is refused with a 400 (the delivery would be cancelled unsent); a
// deleted one is not found.
func (s *Webhooks) Test(ctx context.Context, endpointID, requestID string) (SentTest, error) {
	var dl db.Delivery
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		ep, err := db.GetEndpoint(ctx, tx, db.EndpointScope{}, endpointID)
		if err != nil {
			return err
		}
		if ep.Status != domain.EndpointActive {
			return domain.Invalidf("webhook endpoint %s is %s: only an ACTIVE endpoint receives deliveries", ep.ID, ep.Status)
		}
		ev, err := db.InsertEvent(ctx, tx, ep.AccountID, ep.APIKeyID, domain.EventWebhookTest, ep.ID, TestTrigger{
			EndpointID: ep.ID, URL: ep.URL, Events: []string(ep.Events), TriggeredBy: "admin", RequestID: requestID,
			TriggeredAt: domain.NewTime(time.Now()),
		})
		if err != nil {
			return err
		}
		if err := db.MarkDispatched(ctx, tx, []int64{ev.Seq}); err != nil {
			return err
		}
		dl = db.Delivery{ID: webhook.DeliveryID(ev.ID, ep.ID), EventID: ev.ID, EndpointID: ep.ID, AccountID: ep.AccountID,
			EventType: ev.Type}
		return db.InsertDeliveries(ctx, tx, []db.Delivery{dl})
	})
	if err != nil {
		return SentTest{}, err
	}
	in := workflows.WebhookInput{DeliveryID: dl.ID, FirstAttempt: 1}
	if err := dispatch.StartDelivery(ctx, s.Temporal, s.Queue, dl, in, false); err != nil {
		return SentTest{}, fmt.Errorf("%w: start test delivery: %v", domain.ErrUnavailable, err)
	}
	return SentTest{EventID: dl.EventID, DeliveryID: dl.ID, WorkflowID: workflows.WebhookWorkflowID(dl.ID, 0)}, nil
}
