package processor

import (
	"context"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// The fiscal issuer at the boundary (the municipality's NFS-e service, or
// an aggregator in front of it): an invoice is submitted (IssueInvoice) and
// the issuer's answer comes back later as an InvoiceNotice (issued, with
// its number, or failed with a reason); a refunded sale's invoice is
// withdrawn with CancelInvoice.

// Outcome of an issued invoice (OutcomeFailed is the other).
const OutcomeIssued = "issued"

// InvoiceRequest submits the fiscal invoice ID (the issuer is idempotent
// on it) of the sale paid by the charge ChargeID: Amount from Payer.
type InvoiceRequest struct {
	ID          string
	AccountID   string
	ChargeID    string
	Amount      money.Cents
	Description string
	Payer       *domain.Party
}

// InvoiceNotice is the issuer's answer to an invoice: issued (with the
// invoice's number) or failed (with the reason).
type InvoiceNotice struct {
	// InvoiceID names the invoice, set by the Inbox; its workflow ignores
	// a notice naming another.
	InvoiceID string    `json:"invoiceId,omitempty"`
	Outcome   string    `json:"outcome"`
	Number    string    `json:"number,omitempty"`
	At        time.Time `json:"at"`
	Reason    string    `json:"reason,omitempty"`
}

// Final reports whether the notice concludes the invoice.
func (n InvoiceNotice) Final() bool { return n.Outcome == OutcomeIssued || n.Outcome == OutcomeFailed }

//go:generate go tool mockgen -destination=processormock/fiscal.go -package=processormock . Fiscal

// Fiscal is the fiscal invoice issuer (processor/fiscal.go).
type Fiscal interface {
	// IssueInvoice submits a fiscal invoice to the issuer; its answer
	// arrives as an InvoiceNotice.
	IssueInvoice(ctx context.Context, r InvoiceRequest) (Submission, error)
	// CancelInvoice withdraws the invoice of a refunded sale (idempotent:
	// an invoice cancelled already, or never issued, is no error).
	CancelInvoice(ctx context.Context, invoiceID string) error
}

// FiscalInbox takes the issuer's answer to an invoice.
type FiscalInbox interface {
	InvoiceNotice(ctx context.Context, invoiceID string, n InvoiceNotice) error
}
