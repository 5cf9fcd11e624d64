package billing

import (
	"testing"

	"github.com/jangada/jangada/domain"
)

func TestInvoice(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status string
		card   string
		want   InvoiceState
	}{
		{BillingPending, "", InvoiceState{TakesCard: true}},
		{BillingOverdue, "", InvoiceState{TakesCard: true}},
		{BillingPending, "tok_1", InvoiceState{Processing: true}},
		{BillingConfirmed, "tok_1", InvoiceState{Paid: true, Closed: true}},
		{BillingFailed, "tok_1", InvoiceState{Failed: true, Closed: true}},
		{BillingCanceled, "", InvoiceState{Closed: true}},
	}
	for _, tt := range tests {
		b := Billing{Method: domain.MethodCardDebit, Status: tt.status}
		b.Details.V.CardToken = tt.card
		if got := Invoice(b); got != tt.want {
			t.Errorf("%s with card %q: %+v, want %+v", tt.status, tt.card, got, tt.want)
		}
	}
	if HasInvoicePage(Billing{Method: domain.MethodCardCredit}) || !HasInvoicePage(Billing{Method: domain.MethodCardDebit}) {
		t.Error("only a debit card billing has the invoice page")
	}
}
