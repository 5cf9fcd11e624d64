package domain

// TypePixAutomatic is the record of a PIX automatic payment instruction: a
// money movement of the statement once paid (docs/ledger.md), with the
// instruction's own statuses (SCHEDULED, PAID, FAILED, CANCELED).
const TypePixAutomatic = "PIX_AUTOMATIC"

// PixAutomaticDetails is a payment instruction's block of Details.
type PixAutomaticDetails struct {
	AuthorizationID string `json:"authorizationId"`
	CustomerID      string `json:"customerId,omitempty"`
	// Cycle is the recurrence period the instruction charges (from 0); the
	// first payment, paid with the consent QR, has First set instead.
	Cycle   int    `json:"cycle"`
	First   bool   `json:"first,omitempty"`
	DueDate string `json:"dueDate"`
	// SubmittedAt is when the instruction was sent to the payer's
	// institution for debit (from then on it can no longer be canceled).
	SubmittedAt   *Time  `json:"submittedAt,omitempty"`
	FailureReason string `json:"failureReason,omitempty"`
}
