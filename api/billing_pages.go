package api

import (
	"html/template"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/boleto"
	"github.com/jangada/jangada/document"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

// The public pages of billings: a boleto's printable slip (its barcode
// drawn as Interleaved 2 of 5) and a debit card billing's hosted invoice
// (api/billing_invoice.go). Each is found by the billing's page token (128 random bits), never by
// its id, and shows only what the payer needs.

// billingPageData is what the slip template reads.
type billingPageData struct {
	ID, Line, Barcode, Beneficiary, Payer, PayerTaxID, Due, Status, Description string
	// Merchant is the account's name, the page's header.
	Merchant string
	Amount   money.Cents
	// Bars is the barcode's SVG, drawn by boleto.SVG from digits only.
	Bars template.HTML
}

func (s *Server) billingPage(c *gin.Context, method string) (billing.Billing, billingPageData, bool) {
	v, err := s.Billings.Page(c.Request.Context(), c.Param("token"))
	if err == nil && v.Billing.Method != method {
		err = domain.ErrNotFound
	}
	if err != nil {
		status, msg := statusOf(err), "Não foi possível abrir este boleto. Tente novamente em instantes."
		if status == http.StatusNotFound {
			msg = "Este boleto não existe."
		}
		render(c, status, "gone.html", pageData{Title: "Boleto indisponível", Merchant: "Jangada", Error: msg})
		return billing.Billing{}, billingPageData{}, false
	}
	b := v.Billing
	return b, billingPageData{ID: b.ID, Beneficiary: beneficiary(v.Merchant), Merchant: merchantName(v.Merchant), Payer: b.Customer.V.Name, PayerTaxID: document.Mask(b.Customer.V.TaxID), Due: b.DueDate.Format("02/01/2006"),
		Amount: b.Amount, Status: billing.BillingStatusLabel(b.Status), Description: b.Description}, true
}

// billingSlip serves a boleto's printable slip through the pages' one
// renderer (pages/slip.html): the pages' headers, their CSP (the print
// button is pages/assets/slip.js, the styles pay.css: nothing inline).
func (s *Server) billingSlip(c *gin.Context) {
	b, d, found := s.billingPage(c, domain.MethodBoleto)
	if !found {
		return
	}
	svg, err := boleto.SVG(b.Details.V.Barcode, 1, 50)
	if err != nil {
		render(c, http.StatusInternalServerError, "gone.html", pageData{Title: "Boleto indisponível", Merchant: "Jangada",
			Error: "Não foi possível desenhar este boleto. Tente novamente em instantes."})
		return
	}
	d.Line, d.Barcode, d.Bars = boleto.Format(b.Details.V.DigitableLine), b.Details.V.Barcode, template.HTML(svg)
	render(c, http.StatusOK, "slip.html", pageData{Title: "Boleto", Merchant: d.Merchant, Wide: true, Slip: d})
}

// merchantName names the merchant on a payer's page (Jangada when its
// account could not be read).
func merchantName(m service.PageMerchant) string {
	if m.Name == "" {
		return "Jangada"
	}
	return m.Name
}

// beneficiary is the merchant as a bank slip names its beneficiary: its
// name and its CNPJ (a person's CPF masked).
func beneficiary(m service.PageMerchant) string {
	if m.Document == "" {
		return merchantName(m)
	}
	kind := "CNPJ"
	if len(document.Digits(m.Document)) == 11 {
		kind = "CPF"
	}
	return m.Name + " — " + kind + " " + document.Mask(m.Document)
}
