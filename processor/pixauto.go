package processor

import (
	"context"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// PIX automatic (Pix Automático) at the boundary: the receiver's PSP issues
// the consent QR (NewAuthorization, whose answer the create returns), the
// payer's institution answers the consent (an AuthorizationNotice), and on
// each due date the payer's institution debits an instruction submitted to
// it (DebitInstruction) and reports the outcome (an InstructionNotice).

// Outcomes of PIX automatic notices (beside OutcomePaid and OutcomeFailed).
const (
	OutcomeApproved = "approved"
	OutcomeRejected = "rejected"
)

// AuthorizationRequest asks for the consent QR of a recurrence: its BR
// Code carries the recurrence (field 80) and, with FirstPayment > 0, the
// first payment as an immediate charge.
type AuthorizationRequest struct {
	ID           string
	RecurrenceID string
	FirstPayment money.Cents
	Description  string
	MerchantName string
	MerchantKey  string
}

// DebitRequest submits an instruction to the payer's institution: debit
// Amount under the recurrence on DueDate (YYYY-MM-DD, São Paulo), as
// attempt Attempt (1 on the due date, then each retry of a failed debit).
// The party is idempotent on ID and Attempt.
type DebitRequest struct {
	ID              string
	AuthorizationID string
	RecurrenceID    string
	Amount          money.Cents
	DueDate         string
	Attempt         int
}

// AuthorizationNotice is the payer's answer to the consent: approved (with
// the payer and, when the QR carried one, the first payment's endToEndId)
// or rejected.
type AuthorizationNotice struct {
	// AuthorizationID names the authorization the notice is for, set by the
	// Inbox; the workflow ignores a notice naming another.
	AuthorizationID string        `json:"authorizationId,omitempty"`
	Outcome         string        `json:"outcome"`
	Payer           *domain.Party `json:"payer,omitempty"`
	EndToEndID      string        `json:"endToEndId,omitempty"`
	At              time.Time     `json:"at"`
	Reason          string        `json:"reason,omitempty"`
}

// Final reports whether the notice answers the consent.
func (n AuthorizationNotice) Final() bool {
	return n.Outcome == OutcomeApproved || n.Outcome == OutcomeRejected
}

// InstructionNotice is the outcome of an instruction's debit: paid (with
// the endToEndId) or failed.
type InstructionNotice struct {
	// InstructionID names the instruction, set by the Inbox (see
	// AuthorizationNotice).
	InstructionID string `json:"instructionId,omitempty"`
	// Attempt is the debit attempt the outcome is for; 0 (none named) is
	// taken for attempt 1 only, and an outcome of another attempt than the
	// one in flight is not booked (domain.PixAutomaticAttempt.Named).
	Attempt int `json:"attempt,omitempty"`
	// ReferenceID is the party's reference of the attempt (the debit's
	// Submission), when the notice carries it: it must match the attempt's.
	ReferenceID string    `json:"referenceId,omitempty"`
	Outcome     string    `json:"outcome"`
	EndToEndID  string    `json:"endToEndId,omitempty"`
	At          time.Time `json:"at"`
	Reason      string    `json:"reason,omitempty"`
}

// Final reports whether the notice concludes the debit.
func (n InstructionNotice) Final() bool {
	return n.Outcome == OutcomePaid || n.Outcome == OutcomeFailed
}

//go:generate go tool mockgen -destination=processormock/pixauto.go -package=processormock . PixAutomatic

// PixAutomatic is PIX automatic (processor/pixauto.go).
type PixAutomatic interface {
	// NewAuthorization issues the consent QR of a recurrence (the create
	// returns it, so the use case calls it, like NewCharge); the payer's
	// answer arrives as an AuthorizationNotice.
	NewAuthorization(ctx context.Context, r AuthorizationRequest) (ChargeQR, error)
	// DebitInstruction submits an instruction to the payer's institution on
	// its due date; the outcome arrives as an InstructionNotice.
	DebitInstruction(ctx context.Context, r DebitRequest) (Submission, error)
}

// PixAutomaticInbox takes PIX automatic's notices: the payer's answer to
// a consent and a debit's outcome.
type PixAutomaticInbox interface {
	AuthorizationNotice(ctx context.Context, authorizationID string, n AuthorizationNotice) error
	InstructionNotice(ctx context.Context, instructionID string, n InstructionNotice) error
}

// PixAutomaticSimulator plays the payer of PIX automatic: answering the
// consent QR. Approving pays the first payment the QR carries.
type PixAutomaticSimulator interface {
	ApproveAuthorization(ctx context.Context, authorizationID string, firstPayment bool) error
	RejectAuthorization(ctx context.Context, authorizationID string) error
}
