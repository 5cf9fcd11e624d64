package fiscal

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Fiscal invoices (NFS-e): an account with features.fiscalInvoice asks, per
// PIX charge (emitFiscalInvoice), for the service invoice of the sale. The
// invoice is born in the charge's paid transition (one per charge, its id
// derived from the charge's), issued by the fiscal issuer through
// processor.Fiscal.IssueInvoice, and cancelled when the charge is
// refunded. It is not a money movement: its record has a table of its own
// (fiscal_invoices) and no route of its own; merchants follow it through
// its invoice.* events, whose data is only {"invoiceId": …}
// (docs/fiscal-invoices.md).

// Fiscal invoice statuses.
const (
	InvoiceCreated    = "CREATED"
	InvoiceProcessing = "PROCESSING"
	InvoiceIssued     = "ISSUED"
	InvoiceFailed     = "FAILED"
	InvoiceCancelled  = "CANCELLED"
)

// FiscalInvoice is a charge's fiscal invoice as stored.
type FiscalInvoice struct {
	ID        string  `db:"id" json:"id"`
	AccountID string  `db:"account_id" json:"-"`
	APIKeyID  *string `db:"api_key_id" json:"-"`
	// ChargeID is the PIX charge (PIX_IN) the invoice is for.
	ChargeID string      `db:"charge_id" json:"chargeId"`
	Amount   money.Cents `db:"amount" json:"amount"`
	Status   string      `db:"status" json:"status"`
	// Number is the issuer's invoice number, once ISSUED.
	Number *string `db:"number" json:"number,omitempty"`
	// ReferenceID is the issuer's id of the request.
	ReferenceID *string `db:"reference_id" json:"-"`
	// Reason says why the issuer refused it (FAILED).
	Reason    *string     `db:"reason" json:"reason,omitempty"`
	CreatedAt domain.Time `db:"created_at" json:"createdAt"`
	UpdatedAt domain.Time `db:"updated_at" json:"-"`
}

// FiscalInvoiceID is the id of a charge's fiscal invoice: derived from the
// charge, so that a retried paid transition, the charge's workflow and a
// refund all name the same one invoice without reading it first.
func FiscalInvoiceID(chargeID string) string {
	return domain.DerivedID("inv_", "fiscal-invoice:"+chargeID)
}

// NewFiscalInvoice is the CREATED invoice of a paid charge: its gross
// amount (what the payer paid for the sale), on the charge's account and
// API key (whose webhooks and WebSocket connections get its events).
func NewFiscalInvoice(charge domain.Transaction) FiscalInvoice {
	return FiscalInvoice{ID: FiscalInvoiceID(charge.ID), AccountID: charge.AccountID, APIKeyID: charge.APIKeyID,
		ChargeID: charge.ID, Amount: charge.Amount, Status: InvoiceCreated}
}

// WantsFiscalInvoice reports whether a charge in its new status opens a
// fiscal invoice: it asked for one (emitFiscalInvoice, allowed at create
// only with the account's feature on) and it is paid.
func WantsFiscalInvoice(charge domain.Transaction) bool {
	return charge.Type == domain.TypePixIn && charge.Status == domain.StatusCompleted && charge.Details.V.FiscalInvoice
}

// InvoiceEventData is the data of every invoice.* event: only the
// invoice's id, as the specification says.
type InvoiceEventData struct {
	InvoiceID string `json:"invoiceId"`
}

// InvoiceMoves reports whether an invoice may move from one status to
// another: CREATED → PROCESSING (handed to the issuer) → ISSUED or FAILED;
// any but FAILED (nothing was issued) → CANCELLED (the charge was
// refunded). A move not listed is a retried step that already happened or
// a race it lost: the step writes nothing.
func InvoiceMoves(from, to string) bool {
	switch to {
	case InvoiceProcessing:
		return from == InvoiceCreated
	case InvoiceIssued, InvoiceFailed:
		return from == InvoiceProcessing
	case InvoiceCancelled:
		return from == InvoiceCreated || from == InvoiceProcessing || from == InvoiceIssued
	}
	return false
}

// InvoiceFinal reports whether an invoice has reached a status its
// workflow no longer waits in.
func InvoiceFinal(status string) bool {
	return status == InvoiceIssued || status == InvoiceFailed || status == InvoiceCancelled
}
