package processor

import (
	"context"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
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

	// PIX automatic: the payer answers the consent QR. Approving pays the
	// first payment the QR carries.
	ApproveAuthorization(ctx context.Context, authorizationID string, firstPayment bool) error
	RejectAuthorization(ctx context.Context, authorizationID string) error
	// Billings.
	// PayBilling notifies that the payer paid a boleto or card billing
	// (a PIX billing is paid through its charge: Pay).
	PayBilling(ctx context.Context, billingID string) error
	// OverdueBilling notifies that the billing's due date has passed now.
	OverdueBilling(ctx context.Context, billingID string) error
	// Mobile recharge and crypto.
	// CompleteRecharge has the operator deliver the recharge to phone and
	// answers the outcome it notified (a sandbox may fail some numbers).
	CompleteRecharge(ctx context.Context, id, phone string) (string, error)
	// PayCrypto notifies that the deposit's address received its payAmount.
	PayCrypto(ctx context.Context, depositID string) error
	// SettleCrypto and FailCrypto notify a withdrawal's outcome.
	SettleCrypto(ctx context.Context, id string) error
	FailCrypto(ctx context.Context, id string) error
	// MED disputes (issue 25): OpenMED reports an infraction against the
	// PIX endToEndID and answers the dispute's id; ResolveMED notifies the
	// decision on the infraction.
	OpenMED(ctx context.Context, endToEndID string, amount money.Cents, reason string) (string, error)
	ResolveMED(ctx context.Context, infractionID, status string) error
}
