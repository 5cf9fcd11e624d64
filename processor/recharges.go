package processor

import (
	"context"
	"errors"
	"time"

	"github.com/jangada/jangada/domain/mobile"
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

//go:generate go tool mockgen -destination=processormock/recharges.go -package=processormock . Recharges

// Recharges is the mobile operators (processor/recharges.go).
type Recharges interface {
	// RechargeOffer names the operator of a mobile number and the amounts
	// it sells; the use case asks it before answering (provider route) and
	// before a create (the amount must be offered).
	RechargeOffer(ctx context.Context, phone mobile.MobileNumber) (RechargeOffer, error)
	// Recharge submits a top-up; the outcome arrives as a RechargeNotice.
	// One withdrawn already (CancelRecharge, even of an id it had not
	// seen) is refused with ErrRechargeWithdrawn.
	Recharge(ctx context.Context, r RechargeRequest) (Submission, error)
	// CancelRecharge withdraws a top-up the operator has not delivered; it
	// answers ErrAlreadyDelivered once the operator has delivered (or
	// concluded) it, and after a nil answer the operator never delivers it.
	CancelRecharge(ctx context.Context, id string) error
}

// RechargesInbox takes an operator's answer to a top-up.
type RechargesInbox interface {
	RechargeNotice(ctx context.Context, rechargeID string, n RechargeNotice) error
}

// ErrAlreadyDelivered is CancelRecharge's refusal: the operator has
// delivered (or concluded) the top-up, so it can no longer be cancelled.
var ErrAlreadyDelivered = errors.New("processor: recharge already delivered")

// ErrRechargeWithdrawn is Recharge's refusal: the top-up was withdrawn
// (CancelRecharge answered nil) before it was submitted, so the operator
// will never deliver it.
var ErrRechargeWithdrawn = errors.New("processor: recharge withdrawn before it was submitted")

// RechargesSimulator plays the mobile operator.
type RechargesSimulator interface {
	// CompleteRecharge has the operator deliver the recharge to phone and
	// answers the outcome it notified (a sandbox may fail some numbers).
	CompleteRecharge(ctx context.Context, id, phone string) (string, error)
}
