package api

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/fiscal"
	"github.com/jangada/jangada/service"
)

// eventDoc documents one catalog event: when it is sent and its data.
type eventDoc struct {
	Summary string
	Data    any
}

// eventDocs are the catalog's events as the document's webhooks section
// shows them (TestEveryEventIsDocumented holds them to domain.Catalog).
var eventDocs = map[string]eventDoc{
	domain.EventPaymentCreated:    {"A PIX charge was created", domain.PublicTransaction{}},
	domain.EventPaymentPaid:       {"A PIX charge was paid (COMPLETED)", domain.PublicTransaction{}},
	domain.EventPaymentFailed:     {"A PIX charge failed", domain.PublicTransaction{}},
	domain.EventPaymentExpired:    {"A PIX charge expired unpaid (CANCELED)", domain.PublicTransaction{}},
	domain.EventPaymentRefunded:   {"A received PIX was refunded (in full or in part)", domain.PublicTransaction{}},
	domain.EventRefundRequested:   {"A refund was requested", domain.PublicTransaction{}},
	domain.EventRefundCompleted:   {"A refund was paid back", domain.PublicTransaction{}},
	domain.EventRefundFailed:      {"A refund failed; its money is back", domain.PublicTransaction{}},
	domain.EventTransferCreated:   {"A PIX out was created (its amount reserved)", domain.PublicTransaction{}},
	domain.EventTransferCompleted: {"A PIX out settled", domain.PublicTransaction{}},
	domain.EventTransferFailed:    {"A PIX out failed; its reserve is back", domain.PublicTransaction{}},
	domain.EventInternalCompleted: {"An internal transfer left this account", domain.PublicTransaction{}},
	domain.EventInternalReceived:  {"An internal transfer reached this account", domain.PublicTransaction{}},
	domain.EventMedCreated:        {"A MED dispute was opened on a received PIX", domain.PublicTransaction{}},
	domain.EventMedEvidenceSent:   {"The defence of a MED dispute was sent", domain.PublicTransaction{}},
	domain.EventMedUpdated:        {"A MED dispute moved", domain.PublicTransaction{}},
	domain.EventPaymentLinkPaid:   {"A payment link's checkout session was paid", checkout.SessionView{}},
	domain.EventInvoiceCreated:    {"A fiscal invoice was opened for a paid charge", fiscal.InvoiceEventData{}},
	domain.EventInvoiceProcessing: {"A fiscal invoice is with the issuer", fiscal.InvoiceEventData{}},
	domain.EventInvoiceIssued:     {"A fiscal invoice was issued", fiscal.InvoiceEventData{}},
	domain.EventInvoiceFailed:     {"A fiscal invoice was refused", fiscal.InvoiceEventData{}},
	domain.EventInvoiceCancelled:  {"A fiscal invoice was cancelled", fiscal.InvoiceEventData{}},
	domain.EventWebhookTest:       {"A test sent from the account panel to one endpoint", service.TestTrigger{}},
}

// deliveryHeaders are the headers of every webhook delivery
// (webhook/sender.go).
var deliveryHeaders = []struct{ name, description string }{
	{"x-jangada-event", "the event type"},
	{"x-jangada-delivery", "the delivery id: the same for every attempt of one event to one endpoint (use it to drop repeats)"},
	{"x-jangada-signature", "sha256= and the lower-case hex HMAC-SHA256 of the raw body under the endpoint's whsec_ secret"},
	{"webhook-id", "Standard Webhooks: the delivery id"},
	{"webhook-timestamp", "Standard Webhooks: Unix seconds of this attempt"},
	{"webhook-signature", "Standard Webhooks: v1, and the base64 HMAC-SHA256 of id.timestamp.body under the secret's bytes"},
}

// webhooks is the document's webhooks section: each catalog event as the
// POST an endpoint receives, its envelope and data, its headers, and the
// answer that ends the retries. A WebSocket event frame is the same
// envelope, its id the delivery id of the connection's key.
func (d *apiDoc) webhooks() map[string]any {
	params := make([]any, 0, len(deliveryHeaders))
	for _, h := range deliveryHeaders {
		params = append(params, map[string]any{"name": h.name, "in": "header", "required": true,
			"description": h.description, "schema": map[string]any{"type": "string"}})
	}
	out := map[string]any{}
	for _, name := range domain.Catalog {
		doc := eventDocs[name]
		envelope := map[string]any{
			"type": "object", "required": []string{"id", "event", "createdAt", "data"}, "additionalProperties": false,
			"properties": map[string]any{
				"id":        map[string]any{"type": "string", "description": "the delivery id (x-jangada-delivery)"},
				"event":     map[string]any{"const": name},
				"createdAt": map[string]any{"type": "string", "format": "date-time"},
				"data":      d.named(doc.Data),
			},
		}
		out[name] = map[string]any{"post": map[string]any{
			"operationId": "event_" + operationName(name),
			"summary":     doc.Summary,
			"description": "Sent to every endpoint subscribed to " + name + " (or a pattern matching it), and as a WebSocket event frame with the same envelope.",
			"parameters":  params,
			"requestBody": map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": envelope}}},
			"responses": map[string]any{
				"2XX":     map[string]any{"description": "received: no further attempt"},
				"default": map[string]any{"description": "any other answer, or none within the timeout: the delivery is retried on its schedule"},
			},
		}}
	}
	return out
}

// operationName makes an event type an identifier (payment.pix.expired →
// payment_pix_expired).
func operationName(event string) string {
	b := []byte(event)
	for i, c := range b {
		if c == '.' {
			b[i] = '_'
		}
	}
	return string(b)
}
