package domain

import "encoding/json"

// Event types of the catalog: the one list of event names. A product that
// emits a new event adds its constant here and the same constant to Catalog
// below (TestCatalogListsEveryEventConstant fails if one is missing); the
// webhook and WebSocket patterns ("*", "<family>.*") are derived from it
// (FamilyPatterns, KnownPattern, Matches in event_patterns.go).
const (
	EventPaymentCreated = "payment.created"
	EventPaymentPaid    = "payment.paid"
	EventPaymentFailed  = "payment.failed"
	EventPaymentExpired = "payment.pix.expired"

	EventPaymentRefunded   = "payment.refunded"
	EventRefundRequested   = "refund.requested"
	EventRefundCompleted   = "refund.completed"
	EventRefundFailed      = "refund.failed"
	EventTransferCreated   = "transfer.created"
	EventTransferCompleted = "transfer.completed"
	EventTransferFailed    = "transfer.failed"
	EventInternalCompleted = "transfer.internal.completed"
	EventInternalReceived  = "transfer.internal.received"

	// Events of the specification's products still to come: an endpoint
	// may subscribe to them today.
	EventMedCreated        = "med.created"
	EventMedEvidenceSent   = "med.evidence_sent"
	EventMedUpdated        = "med.updated"
	EventPaymentLinkPaid   = "payment_link.paid"
	EventInvoiceCreated    = "invoice.created"
	EventInvoiceProcessing = "invoice.processing"
	EventInvoiceIssued     = "invoice.issued"
	EventInvoiceFailed     = "invoice.failed"
	EventInvoiceCancelled  = "invoice.cancelled"
	EventWebhookTest       = "webhook.test"
)

// Catalog is the list of active event types of the specification, in the
// specification's order.
var Catalog = []string{
	EventPaymentCreated, EventPaymentPaid, EventPaymentFailed, EventPaymentExpired, EventPaymentRefunded,
	EventRefundRequested, EventRefundCompleted, EventRefundFailed,
	EventTransferCreated, EventTransferCompleted, EventTransferFailed,
	EventInternalCompleted, EventInternalReceived,
	EventMedCreated, EventMedEvidenceSent, EventMedUpdated,
	EventPaymentLinkPaid,
	EventInvoiceCreated, EventInvoiceProcessing, EventInvoiceIssued, EventInvoiceFailed, EventInvoiceCancelled,
	EventWebhookTest,
}

// Event is one outbox row: a fact about a resource, written in the same
// database transaction as the change it reports.
type Event struct {
	ID         string          `db:"id"`
	Seq        int64           `db:"seq"`
	AccountID  string          `db:"account_id"`
	APIKeyID   *string         `db:"api_key_id"`
	Type       string          `db:"type"`
	ResourceID string          `db:"resource_id"`
	Data       json.RawMessage `db:"data"`
	CreatedAt  Time            `db:"created_at"`
}
