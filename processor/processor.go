// Package processor is the boundary to every outside party that moves money
// for Jangada: today the PIX network's processor (PIX in, PIX out, refunds),
// shaped so that billings and cards, MED, mobile recharge, crypto and the
// credit bureau plug in the same way.
//
// Two directions cross it. Outbound, activities call Processor (Temporal
// retries them; every method is idempotent on our resource id), except a
// call whose answer the HTTP response itself needs, which the use case
// makes before it commits: NewCharge and NewAuthorization, whose BR Codes
// are in the create's answer. Each call asks the party to do something and returns at
// once with the party's reference. Inbound, the party's answer arrives later as a notice (a real
// processor sends a webhook); an adapter turns it into one of the notice
// types below and hands it to Inbox, which forwards it to the resource's
// workflow. Workflows, activities and use cases see only these types, never
// the adapter: the sandbox (package processor/sandbox) is one adapter, and a
// second one needs no change outside its own package and its wiring.
package processor

import (
	"context"
	"errors"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/money"
)

//go:generate go tool mockgen -destination=processormock/pix.go -package=processormock . Pix
//go:generate go tool mockgen -destination=processormock/pixauto.go -package=processormock . PixAutomatic
//go:generate go tool mockgen -destination=processormock/billings.go -package=processormock . Billings
//go:generate go tool mockgen -destination=processormock/recharges.go -package=processormock . Recharges
//go:generate go tool mockgen -destination=processormock/crypto.go -package=processormock . Crypto
//go:generate go tool mockgen -destination=processormock/med.go -package=processormock . MED
//go:generate go tool mockgen -destination=processormock/bureau.go -package=processormock . Bureau
//go:generate go tool mockgen -destination=processormock/fiscal.go -package=processormock . Fiscal
//go:generate go tool mockgen -destination=processormock/inbox.go -package=processormock . Inbox

// Processor is what Jangada asks of the processor: the union of the
// per-product interfaces below, so one adapter value (the sandbox) serves
// them all and the wiring hands the same value to every consumer. A
// consumer (an activities struct, a use case) takes only the product
// interface it calls, so its tests mock only that. Every method must be
// idempotent on the resource id: activities retry (at least once), and the
// same id must never move money twice at the processor.
type Processor interface {
	Pix
	PixAutomatic
	Billings
	Recharges
	Crypto
	MED
	Bureau
	Fiscal
}

// Pix is the PIX network: charges (PIX in), PIX out and refunds.
type Pix interface {
	// NewCharge issues a dynamic BR Code for a PIX charge.
	NewCharge(ctx context.Context, r ChargeRequest) (ChargeQR, error)
	// SendPix submits a PIX out; the outcome arrives as a TransferNotice.
	SendPix(ctx context.Context, r PixOutRequest) (Submission, error)
	// Refund submits the refund (devolução) of a received PIX; the outcome
	// arrives as a RefundNotice.
	Refund(ctx context.Context, r RefundRequest) (Submission, error)
}

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

// Billings is the boleto registrar and the card acquirer (processor/billings.go).
type Billings interface {
	// RegisterBoleto registers a boleto and answers its barcode (the
	// create's answer holds its digitable line).
	RegisterBoleto(ctx context.Context, r BoletoRequest) (BoletoSlip, error)
	// CancelBoleto voids a canceled billing's boleto (idempotent); it answers
	// ErrBoletoPaid when the registrar had taken a payment of it first.
	CancelBoleto(ctx context.Context, r BoletoCancelRequest) error
	// TokenizeCard stores a card in the processor's vault and answers its
	// token; the number and CVV go nowhere else.
	TokenizeCard(ctx context.Context, r CardTokenRequest) (CardToken, error)
	// ChargeCard submits a sale on a tokenized card; the acquirer's answer
	// (approved or declined) arrives as a BillingNotice.
	ChargeCard(ctx context.Context, r CardChargeRequest) (Submission, error)
	// RefundBilling returns Amount of a paid boleto or card billing to its
	// payer (idempotent on RefundID).
	RefundBilling(ctx context.Context, r BillingRefundRequest) (Submission, error)
}

// Recharges is the mobile operators (processor/recharge.go).
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

// Crypto is the crypto processor (processor/crypto.go).
type Crypto interface {
	// CryptoRate is the price source: BRL per coin of a currency, and how
	// long a quote at that rate holds.
	CryptoRate(ctx context.Context, currency string) (CryptoRate, error)
	// CryptoDepositAddress opens a deposit's own address; the payment
	// arrives as a CryptoNotice.
	CryptoDepositAddress(ctx context.Context, r CryptoAddressRequest) (CryptoAddress, error)
	// SendCrypto submits a withdrawal; the outcome arrives as a CryptoNotice.
	SendCrypto(ctx context.Context, r CryptoOutRequest) (Submission, error)
}

// MED is the PIX network's dispute mechanism (issue 25).
type MED interface {
	// ContestMED sends the defence of a dispute (idempotent on the
	// dispute); the decision arrives as a MEDNotice.
	ContestMED(ctx context.Context, d MEDDefence) (Submission, error)
}

// Bureau is the credit bureau (processor/bureau.go).
type Bureau interface {
	// RequestDunning submits a dunning; the bureau's analysis arrives as a
	// DunningNotice.
	RequestDunning(ctx context.Context, r DunningRequest) (Submission, error)
	// CreditReport asks for a credit report, answered at once (the
	// create returns it).
	CreditReport(ctx context.Context, r ReportRequest) (CreditReport, error)
}

// Fiscal is the fiscal invoice issuer (processor/fiscal.go).
type Fiscal interface {
	// IssueInvoice submits a fiscal invoice to the issuer; its answer
	// arrives as an InvoiceNotice.
	IssueInvoice(ctx context.Context, r InvoiceRequest) (Submission, error)
	// CancelInvoice withdraws the invoice of a refunded sale (idempotent:
	// an invoice cancelled already, or never issued, is no error).
	CancelInvoice(ctx context.Context, invoiceID string) error
}

// Inbox receives the processor's notices: each one goes to the workflow of
// the resource it names. The service implements it; adapters call it from
// their webhook handler (or, for the sandbox, from its simulation).
type Inbox interface {
	ChargeNotice(ctx context.Context, chargeID string, n ChargeNotice) error
	TransferNotice(ctx context.Context, transferID string, n TransferNotice) error
	RefundNotice(ctx context.Context, depositID string, n RefundNotice) error
	// PIX automatic (processor/pixauto.go).
	AuthorizationNotice(ctx context.Context, authorizationID string, n AuthorizationNotice) error
	InstructionNotice(ctx context.Context, instructionID string, n InstructionNotice) error
	// BillingNotice: a boleto or card billing paid, declined or past due.
	BillingNotice(ctx context.Context, billingID string, n BillingNotice) error

	// Mobile recharge and crypto.
	RechargeNotice(ctx context.Context, rechargeID string, n RechargeNotice) error
	CryptoDepositNotice(ctx context.Context, depositID string, n CryptoNotice) error
	CryptoWithdrawalNotice(ctx context.Context, withdrawalID string, n CryptoNotice) error
	// MED disputes (issue 25): MEDOpened reports an infraction against a
	// received PIX and answers the dispute's id; MEDNotice its outcome.
	MEDOpened(ctx context.Context, n MEDOpening) (string, error)
	MEDNotice(ctx context.Context, n MEDNotice) error
	// Credit bureau (processor/bureau.go).
	DunningNotice(ctx context.Context, dunningID string, n DunningNotice) error
	// Fiscal invoices (processor/fiscal.go).
	InvoiceNotice(ctx context.Context, invoiceID string, n InvoiceNotice) error
}

// Registry is where an adapter's own workflows and activities are
// registered: a Temporal worker or a test environment (worker.Registry).
type Registry interface {
	RegisterWorkflow(any)
	RegisterActivity(any)
}

// Registrar is implemented by an adapter that brings Temporal machinery of
// its own (the sandbox's simulated network: a workflow and an activity).
// The worker registers it beside Jangada's workflows when the adapter the
// app picked implements it, so the worker never names an adapter's package.
type Registrar interface {
	Register(r Registry)
}

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

// PixOutRequest submits a PIX out of Amount (what the recipient receives).
type PixOutRequest struct {
	ID          string
	Amount      money.Cents
	PixKey      string
	PixKeyType  string
	Description string
}

// RefundRequest submits the refund of the deposit DepositID (its endToEndId
// identifies it on the PIX network).
type RefundRequest struct {
	DepositID  string
	EndToEndID string
	RefundID   string
	Amount     money.Cents
	Nature     string
}

// Submission is the processor's acknowledgement of a PIX out or refund.
type Submission struct {
	ReferenceID string
}

// Outcomes a notice can carry.
const (
	OutcomePaid    = "paid"
	OutcomeFailed  = "failed"
	OutcomeExpired = "expired"
	OutcomeSettled = "settled"
)

// ChargeNotice is what the processor says of a charge: paid (with the payer
// and the endToEndId), failed or expired.
type ChargeNotice struct {
	// ChargeID names the charge the notice is for. The Inbox sets it (an
	// adapter need not); the charge's workflow ignores a notice naming
	// another charge, so a sealed "paid" notice copied from one charge's
	// history cannot pay another.
	ChargeID   string        `json:"chargeId,omitempty"`
	Outcome    string        `json:"outcome"`
	Payer      *domain.Party `json:"payer,omitempty"`
	EndToEndID string        `json:"endToEndId,omitempty"`
	At         time.Time     `json:"at"`
	Reason     string        `json:"reason,omitempty"`
}

// Final reports whether the notice ends the charge (unknown outcomes are ignored).
func (n ChargeNotice) Final() bool {
	return n.Outcome == OutcomePaid || n.Outcome == OutcomeFailed || n.Outcome == OutcomeExpired
}

// TransferNotice is what the processor says of a PIX out: settled (with the
// recipient as the DICT describes it) or failed.
type TransferNotice struct {
	// TransferID names the PIX out the notice is for, set by the Inbox; the
	// transfer's workflow ignores a notice naming another one.
	TransferID string        `json:"transferId,omitempty"`
	Outcome    string        `json:"outcome"`
	Recipient  *domain.Party `json:"recipient,omitempty"`
	EndToEndID string        `json:"endToEndId,omitempty"`
	At         time.Time     `json:"at"`
	Reason     string        `json:"reason,omitempty"`
}

// Final reports whether the notice ends the transfer.
func (n TransferNotice) Final() bool {
	return n.Outcome == OutcomeSettled || n.Outcome == OutcomeFailed
}

// RefundNotice is what the processor says of a refund: settled or failed.
type RefundNotice struct {
	// DepositID names the deposit whose refund the notice is for, set by
	// the Inbox; the refund's workflow ignores a notice naming another.
	DepositID string    `json:"depositId,omitempty"`
	Outcome   string    `json:"outcome"`
	At        time.Time `json:"at"`
	Reason    string    `json:"reason,omitempty"`
}

// Final reports whether the notice ends the refund.
func (n RefundNotice) Final() bool { return n.Outcome == OutcomeSettled || n.Outcome == OutcomeFailed }

// MED disputes (issue 25).

// MEDOpening is the processor's report of an infraction (a payer's PSP
// disputes a PIX the merchant received): the PIX by its endToEndId, the
// disputed amount and the reason, under the processor's infraction id.
type MEDOpening struct {
	InfractionID string      `json:"infractionId"`
	EndToEndID   string      `json:"endToEndId"`
	Amount       money.Cents `json:"amount"`
	Reason       string      `json:"reason"`
	At           time.Time   `json:"at"`
}

// MEDNotice is the processor's decision on a dispute: one of the final MED
// statuses (domain.MedOutcomes).
type MEDNotice struct {
	// MEDID names the dispute, set by the Inbox (the dispute's workflow
	// ignores a notice naming another).
	MEDID        string    `json:"medId,omitempty"`
	InfractionID string    `json:"infractionId"`
	Status       string    `json:"status"`
	At           time.Time `json:"at"`
}

// MEDDefence is a dispute's defence as sent to the processor: the
// description and the evidence files.
type MEDDefence struct {
	MEDID        string
	InfractionID string
	Description  string
	Automatic    bool
	Files        []MEDFile
}

// MEDFile is one evidence file sent with a defence.
type MEDFile struct {
	Name        string
	ContentType string
	SHA256      string
	Content     []byte
}

// ErrAlreadyDelivered is CancelRecharge's refusal: the operator has
// delivered (or concluded) the top-up, so it can no longer be cancelled.
var ErrAlreadyDelivered = errors.New("processor: recharge already delivered")

// ErrRechargeWithdrawn is Recharge's refusal: the top-up was withdrawn
// (CancelRecharge answered nil) before it was submitted, so the operator
// will never deliver it.
var ErrRechargeWithdrawn = errors.New("processor: recharge withdrawn before it was submitted")
