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
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

//go:generate go tool mockgen -destination=processormock/pix.go -package=processormock . Pix
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

// Inbox receives the processor's notices: each one goes to the workflow of
// the resource it names. The service implements it; adapters call it from
// their webhook handler (or, for the sandbox, from its simulation). A
// product's notices are an interface of its own, declared in its file
// (processor/recharges.go: RechargeInbox) and embedded here.
type Inbox interface {
	ChargeNotice(ctx context.Context, chargeID string, n ChargeNotice) error
	TransferNotice(ctx context.Context, transferID string, n TransferNotice) error
	RefundNotice(ctx context.Context, depositID string, n RefundNotice) error
	PixAutomaticInbox
	BillingsInbox
	RechargesInbox
	CryptoInbox
	MEDInbox
	BureauInbox
	FiscalInbox
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

// MED disputes.

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
