// Package processor is the boundary to the PIX network and its payment
// processor. The service talks only to the Processor interface; Sandbox is the
// built-in simulator, and a real processor adapter can replace it.
package processor

import (
	"context"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// ChargeRequest asks the processor for a dynamic BR Code.
type ChargeRequest struct {
	ID           string
	Amount       money.Cents
	Description  string
	MerchantName string
	MerchantKey  string
	ExpiresAt    time.Time
}

// ChargeQR is the processor's answer: its own id and the BR Code.
type ChargeQR struct {
	ReferenceID string
	CopyPaste   string
}

// Outcomes a processor notice can carry: paid, failed and expired for a
// charge; settled and failed for a PIX out or a refund.
const (
	OutcomePaid    = "paid"
	OutcomeFailed  = "failed"
	OutcomeExpired = "expired"
	OutcomeSettled = "settled"
)

// ChargeNotice is what the processor tells us about a charge: it feeds the
// charge workflow as a signal.
type ChargeNotice struct {
	Outcome    string        `json:"outcome"`
	Payer      *domain.Party `json:"payer,omitempty"`
	Recipient  *domain.Party `json:"recipient,omitempty"`
	EndToEndID string        `json:"endToEndId,omitempty"`
	At         time.Time     `json:"at"`
	Reason     string        `json:"reason,omitempty"`
}

// Processor issues charges. Confirmations arrive asynchronously as notices.
type Processor interface {
	NewCharge(ctx context.Context, r ChargeRequest) (ChargeQR, error)
}
