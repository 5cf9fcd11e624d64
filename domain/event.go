package domain

import "encoding/json"

// Event types of the catalog.
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
)

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
