package sandbox

import (
	"context"
	"time"

	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

// The fiscal issuer in the sandbox: an invoice is issued by the simulated
// issuer after SettleAfter (at once when auto-settlement is off: no
// sandbox route answers an invoice by hand), through the same durable
// delivery as the simulated network's settlements. Its number is derived
// from the invoice id, so a retried answer issues the same number.

// KindInvoice is the delivery of the issuer's answer to an invoice.
const KindInvoice = "fiscal-invoice"

var _ = onDelivery(KindInvoice, func(s *Sandbox, ctx context.Context, d Delivery) error {
	return s.AnswerInvoice(ctx, d.ID, d.Reason)
})

// FailInvoiceCents makes the issuer refuse an invoice: a charge whose
// amount ends in these centavos (R$ x,13) gets invoice.failed
// (docs/fiscal-invoices.md).
const FailInvoiceCents = 13

// IssueInvoice accepts the invoice and arms the issuer's answer.
func (s *Sandbox) IssueInvoice(ctx context.Context, r processor.InvoiceRequest) (processor.Submission, error) {
	d := Delivery{Kind: KindInvoice, ID: r.ID}
	if r.Amount%100 == money.Cents(FailInvoiceCents) {
		d.Reason = "the issuer refused the invoice: the service code is not enabled for the merchant"
	}
	return processor.Submission{ReferenceID: "sbx_inv_" + processor.TxID(r.ID)[20:]}, s.laterAfter(ctx, d, max(s.SettleAfter, 0))
}

// CancelInvoice withdraws an invoice. The simulated issuer keeps no state:
// an answer still armed for it is refused by the Inbox once the invoice is
// CANCELLED (the delivery then ends), so there is nothing to undo here.
func (s *Sandbox) CancelInvoice(context.Context, string) error { return nil }

// AnswerInvoice notifies the issuer's answer: issued with its number, or
// failed with reason.
func (s *Sandbox) AnswerInvoice(ctx context.Context, invoiceID, reason string) error {
	n := processor.InvoiceNotice{Outcome: processor.OutcomeIssued, Number: "SBX-" + processor.TxID(invoiceID)[4:16], At: time.Now().UTC()}
	if reason != "" {
		n.Outcome, n.Number, n.Reason = processor.OutcomeFailed, "", reason
	}
	return s.Inbox.InvoiceNotice(ctx, invoiceID, n)
}
