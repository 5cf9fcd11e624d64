package fiscal_test

import (
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/fiscal"
)

func TestInvoiceMoves(t *testing.T) {
	all := []string{fiscal.InvoiceCreated, fiscal.InvoiceProcessing, fiscal.InvoiceIssued, fiscal.InvoiceFailed, fiscal.InvoiceCancelled}
	allowed := map[[2]string]bool{
		{fiscal.InvoiceCreated, fiscal.InvoiceProcessing}:   true,
		{fiscal.InvoiceProcessing, fiscal.InvoiceIssued}:    true,
		{fiscal.InvoiceProcessing, fiscal.InvoiceFailed}:    true,
		{fiscal.InvoiceCreated, fiscal.InvoiceCancelled}:    true,
		{fiscal.InvoiceProcessing, fiscal.InvoiceCancelled}: true,
		{fiscal.InvoiceIssued, fiscal.InvoiceCancelled}:     true,
	}
	for _, from := range all {
		for _, to := range all {
			if got := fiscal.InvoiceMoves(from, to); got != allowed[[2]string{from, to}] {
				t.Errorf("InvoiceMoves(%s, %s) = %v", from, to, got)
			}
		}
	}
}

func TestWantsFiscalInvoice(t *testing.T) {
	paid := domain.Transaction{ID: "c1", Type: domain.TypePixIn, Status: domain.StatusCompleted,
		Details: domain.SomeJSON(domain.Details{FiscalInvoice: true})}
	cases := []struct {
		name string
		edit func(*domain.Transaction)
		want bool
	}{
		{"paid charge that asked", func(*domain.Transaction) {}, true},
		{"did not ask", func(c *domain.Transaction) { c.Details.V.FiscalInvoice = false }, false},
		{"pending", func(c *domain.Transaction) { c.Status = domain.StatusPending }, false},
		{"expired", func(c *domain.Transaction) { c.Status = domain.StatusCanceled }, false},
		{"not a charge", func(c *domain.Transaction) { c.Type = domain.TypePixOut }, false},
	}
	for _, c := range cases {
		tr := paid
		c.edit(&tr)
		if got := fiscal.WantsFiscalInvoice(tr); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestNewFiscalInvoice(t *testing.T) {
	key := "key_1"
	c := domain.Transaction{ID: "c1", AccountID: "acc", APIKeyID: &key, Amount: 1234}
	inv := fiscal.NewFiscalInvoice(c)
	if inv.ID != fiscal.FiscalInvoiceID("c1") || !strings.HasPrefix(inv.ID, "inv_") || inv.ID == fiscal.FiscalInvoiceID("c2") {
		t.Errorf("id %q is not derived from the charge alone", inv.ID)
	}
	if inv.ChargeID != "c1" || inv.AccountID != "acc" || *inv.APIKeyID != key || inv.Amount != 1234 || inv.Status != fiscal.InvoiceCreated {
		t.Errorf("invoice = %+v", inv)
	}
}
