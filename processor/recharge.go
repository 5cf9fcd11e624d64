package processor

import (
	"time"

	"github.com/jangada/jangada/money"
)

// RechargeOffer is what a mobile operator sells for a number.
type RechargeOffer struct {
	Operator string
	Amounts  []money.Cents
}

// RechargeRequest submits a top-up of Amount to Phone (national form) at
// Operator; ID is the recharge's id (the operator is idempotent on it).
type RechargeRequest struct {
	ID       string
	Phone    string
	Operator string
	Amount   money.Cents
}

// Outcome of a delivered recharge (OutcomeFailed is the other).
const OutcomeCompleted = "completed"

// RechargeNotice is what the operator says of a recharge: completed
// (delivered to the phone) or failed.
type RechargeNotice struct {
	// RechargeID names the recharge, set by the Inbox; the recharge's
	// workflow ignores a notice naming another one.
	RechargeID string    `json:"rechargeId,omitempty"`
	Outcome    string    `json:"outcome"`
	At         time.Time `json:"at"`
	Reason     string    `json:"reason,omitempty"`
}

// Final reports whether the notice ends the recharge.
func (n RechargeNotice) Final() bool {
	return n.Outcome == OutcomeCompleted || n.Outcome == OutcomeFailed
}
