package billing

import "github.com/jangada/jangada/domain"

// InvoiceState is what a debit card billing's hosted invoice page shows
// and accepts: decided here, rendered by the page.
type InvoiceState struct {
	// TakesCard: the payer may send a card (payable, no card sent yet).
	TakesCard bool
	// Processing: a card was sent and the acquirer has not answered.
	Processing bool
	// Paid and Failed: the card's outcome.
	Paid, Failed bool
	// Closed: the billing no longer takes payments at all.
	Closed bool
}

// HasInvoicePage reports whether a billing is served by the hosted
// invoice: only a debit card billing is (its card is typed by the payer).
func HasInvoicePage(b Billing) bool { return b.Method == domain.MethodCardDebit }

// Invoice decides the invoice page's state of b. A card sent while the
// page does not take one is refused (409, the page as it stands).
func Invoice(b Billing) InvoiceState {
	carded := b.Details.V.CardToken != ""
	return InvoiceState{
		TakesCard:  b.Payable() && !carded,
		Processing: b.Payable() && carded,
		Paid:       BillingPaid(b.Status) && carded,
		Failed:     b.Status == BillingFailed,
		Closed:     !b.Payable(),
	}
}
