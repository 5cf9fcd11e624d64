package processor

import (
	"context"
	"errors"
	"time"

	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/money"
)

// BoletoRequest registers a boleto for billing ID.
type BoletoRequest struct {
	ID         string
	Amount     money.Cents
	DueDate    time.Time
	PayerName  string
	PayerTaxID string
}

// BoletoSlip is the registrar's answer: its reference, the 44-digit barcode
// and the 47-digit digitable line.
type BoletoSlip struct {
	ReferenceID   string
	Barcode       string
	DigitableLine string
}

// BoletoCancelRequest voids billing BillingID's boleto at the registrar
// (its "baixa"): once voided, the registrar refuses to take a payment of it.
type BoletoCancelRequest struct {
	BillingID string
	// ReferenceID is the registrar's reference (RegisterBoleto's answer).
	ReferenceID string
}

// ErrBoletoPaid is CancelBoleto's answer when the registrar had accepted a
// payment of the boleto before the void: its paid notice is on its way (or
// came), and the billing books it as a late payment (docs/ledger.md).
var ErrBoletoPaid = errors.New("processor: boleto already paid at the registrar")

// ErrBoletoVoided is the registrar's refusal to take a payment of a boleto
// it voided (the sandbox pay route answers it as a 400).
var ErrBoletoVoided = errors.New("processor: boleto voided at the registrar")

// CardTokenRequest asks the processor's vault to keep a card. Card holds
// the number and CVV in memory only: no adapter may log or store them
// outside the vault.
type CardTokenRequest struct {
	// ID names the tokenization (idempotent).
	ID         string
	Card       billing.CardData
	HolderInfo *billing.CardHolderInfo
	RemoteIP   string
}

// CardToken is the vault's token of a card, with what may be shown of it.
type CardToken struct {
	Token string
	Brand string
	Last4 string
}

// CardChargeRequest submits a sale of Amount on a tokenized card.
type CardChargeRequest struct {
	// ID is the billing's id (the sale is idempotent on it).
	ID           string
	Token        string
	Method       string
	Amount       money.Cents
	Installments int
	RemoteIP     string
}

// ErrRefundRefused is RefundBilling's permanent refusal (the acquirer or
// the registrar will not return the money: asking again gets the same
// answer); any other error is transient and the call is retried. The
// refund is failed and its booked money returned to the merchant.
var ErrRefundRefused = errors.New("processor: refund refused")

// BillingRefundRequest returns Amount of billing BillingID to its payer.
type BillingRefundRequest struct {
	BillingID string
	RefundID  string
	Method    string
	Amount    money.Cents
}

// Billing notice outcomes (OutcomePaid and OutcomeFailed are shared).
const (
	// OutcomeOverdue: the billing's due date has passed (the sandbox's
	// overdue route; the workflow's own timer says the same at the end of
	// the due date).
	OutcomeOverdue = "overdue"
)

// BillingNotice is what the registrar or the acquirer says of a billing:
// paid (a boleto paid, a card sale approved), failed (a card declined) or
// overdue.
type BillingNotice struct {
	// BillingID names the billing, set by the Inbox; its workflow ignores a
	// notice naming another.
	BillingID   string    `json:"billingId,omitempty"`
	Outcome     string    `json:"outcome"`
	ReferenceID string    `json:"referenceId,omitempty"`
	At          time.Time `json:"at"`
	Reason      string    `json:"reason,omitempty"`
}

// Known reports whether the workflow acts on the notice's outcome.
func (n BillingNotice) Known() bool {
	return n.Outcome == OutcomePaid || n.Outcome == OutcomeFailed || n.Outcome == OutcomeOverdue
}

//go:generate go tool mockgen -destination=processormock/billings.go -package=processormock . Billings

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

// BillingsInbox takes a boleto's or card billing's notice: paid,
// declined or past due.
type BillingsInbox interface {
	BillingNotice(ctx context.Context, billingID string, n BillingNotice) error
}

// BillingsSimulator plays a billing's payer and calendar.
type BillingsSimulator interface {
	// PayBilling notifies that the payer paid a boleto or card billing
	// (a PIX billing is paid through its charge: Pay).
	PayBilling(ctx context.Context, billingID string) error
	// OverdueBilling notifies that the billing's due date has passed now.
	OverdueBilling(ctx context.Context, billingID string) error
}
