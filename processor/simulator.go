package processor

import (
	"context"

	"github.com/jangada/jangada/domain"
)

// Simulator is the part of an adapter's contract that a sandbox offers: it
// plays the payer and the PIX network, sending the notice the real party
// would (through the adapter's Inbox). The sandbox routes reach it through
// this interface, never through an adapter's package, so a second adapter
// that simulates is one package plus its wiring; an adapter of a real
// processor has none, and the sandbox routes then do not exist.
type Simulator interface {
	// Pay notifies that the charge was paid by payer (nil: a default payer).
	Pay(ctx context.Context, chargeID string, payer *domain.Party) error
	// FailCharge notifies that the charge failed.
	FailCharge(ctx context.Context, chargeID string) error
	// ExpireCharge notifies that the charge expired unpaid.
	ExpireCharge(ctx context.Context, chargeID string) error
	// SettleTransfer settles a PIX out to the key it was sent to and answers
	// the outcome it notified (a sandbox may fail some keys on purpose).
	SettleTransfer(ctx context.Context, id, keyType, key string) (string, error)
	// FailTransfer notifies that the PIX out failed.
	FailTransfer(ctx context.Context, id string) error
	// SettleRefund notifies that the refund of the deposit settled.
	SettleRefund(ctx context.Context, depositID string) error
	// FailRefund notifies that the refund of the deposit failed.
	FailRefund(ctx context.Context, depositID string) error

	// A product's simulations are an interface of its own, declared in
	// its file (processor/recharges.go: RechargesSimulator).
	PixAutomaticSimulator
	BillingsSimulator
	RechargesSimulator
	CryptoSimulator
	MEDSimulator
}
