package api

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/document"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

// A debit card billing's hosted invoice: the page its invoiceUrl
// names, with a card form while the billing is payable and holds no card,
// and the form's POST to the same address plus /pay. Both are found by the
// billing's page token, take no API key, and are rendered as the payment
// links' pages are (render: html/template, the pages' CSP, no-store,
// no-referrer). The form posts to its own origin (CSP form-action 'self')
// and carries nothing but the card: the unguessable token in the address
// is the only authority, so a forged cross-site post gains nothing its
// sender did not know. Bad input renders the page again, 400, naming the
// field, as the payment link's form does; the number and CVV are never
// written back into the page.

// invoiceView is what the invoice template reads.
type invoiceView struct {
	Action, Due, Payer, PayerTaxID, Description, Status, StatusLabel string
	Amount                                                           money.Cents
	CardBrand, CardLast4, FailureReason                              string
	// ShowForm: payable and no card yet; Processing: payable, a card given.
	ShowForm, Processing, Paid, Failed bool
	Form                               invoiceForm
}

// invoiceForm is what the payer typed that may be shown again.
type invoiceForm struct {
	HolderName, ExpiryMonth, ExpiryYear string
}

// invoiceRefreshSeconds is how often a payment in processing reloads.
const invoiceRefreshSeconds = "3"

// billingInvoice serves a debit card billing's hosted invoice.
func (s *Server) billingInvoice(c *gin.Context) {
	b, ok := s.invoiceBilling(c)
	if !ok {
		return
	}
	renderInvoice(c, http.StatusOK, b, invoiceForm{}, "")
}

// invoiceBilling is the debit card billing of the page token, or a 404
// page.
func (s *Server) invoiceBilling(c *gin.Context) (service.CreatedBilling, bool) {
	v, err := s.Billings.Page(c.Request.Context(), c.Param("token"))
	if err == nil && !billing.HasInvoicePage(v.Billing) {
		err = domain.ErrNotFound
	}
	if err != nil {
		status, msg := statusOf(err), "Não foi possível abrir esta fatura. Tente novamente em instantes."
		if status == http.StatusNotFound {
			msg = "Esta fatura não existe."
		}
		render(c, status, "gone.html", pageData{Title: "Fatura indisponível", Merchant: "Jangada", Error: msg})
		return service.CreatedBilling{}, false
	}
	return v, true
}

// payInvoice is the invoice form: the card checked as the API checks one
// (domain.CreditCardRequest.Validate: Luhn, brand, expiry, CVV), then the
// use case tokenizes it and has the billing's workflow charge it; the
// answer is the invoice page again (303), in processing. A billing closed
// or holding a card already refuses it (409, the page as it stands).
func (s *Server) payInvoice(c *gin.Context) {
	perMinute := s.cfg.PageCheckoutsPerMinute
	if perMinute <= 0 {
		perMinute = DefaultPageCheckoutsPerMinute
	}
	if !s.limiter.Allow(c.Request.Context(), "invoice-pay:"+c.ClientIP(), perMinute).Allowed {
		c.Header("Retry-After", "60")
		render(c, http.StatusTooManyRequests, "gone.html", pageData{Title: "Muitas tentativas", Merchant: "Jangada",
			Error: "Muitas tentativas de pagamento a partir deste endereço. Aguarde um minuto e tente de novo."})
		return
	}
	form := invoiceForm{HolderName: c.PostForm("holderName"), ExpiryMonth: c.PostForm("expiryMonth"), ExpiryYear: c.PostForm("expiryYear")}
	number := c.PostForm("number")
	req := billing.CreditCardRequest{HolderName: &form.HolderName, Number: optionalForm(number),
		ExpiryMonth: cardFormField(form.ExpiryMonth), ExpiryYear: cardFormField(form.ExpiryYear), CCV: cardFormField(c.PostForm("ccv"))}
	card, err := req.Validate("", time.Now())
	if err != nil {
		b, ok := s.invoiceBilling(c)
		if !ok {
			return
		}
		if !billing.Invoice(b.Billing).TakesCard {
			renderInvoice(c, http.StatusConflict, b, invoiceForm{}, invoiceRefusal(b.Billing))
			return
		}
		renderInvoice(c, http.StatusBadRequest, b, form, err.Error())
		return
	}
	v, err := s.Billings.PayInvoice(c.Request.Context(), c.Param("token"), billing.NewInvoicePayment{Card: card, RemoteIP: c.ClientIP()})
	switch {
	case err == nil:
		c.Redirect(http.StatusSeeOther, "/billings/invoice/"+c.Param("token"))
	case errors.Is(err, service.ErrInvoiceClosed), errors.Is(err, service.ErrInvoiceHasCard):
		renderInvoice(c, http.StatusConflict, v, invoiceForm{}, invoiceRefusal(v.Billing))
	case statusOf(err) == http.StatusNotFound:
		render(c, http.StatusNotFound, "gone.html", pageData{Title: "Fatura indisponível", Merchant: "Jangada", Error: "Esta fatura não existe."})
	default:
		b, ok := s.invoiceBilling(c)
		if !ok {
			return
		}
		status, msg := statusOf(err), "Não foi possível enviar o pagamento. Tente novamente em instantes."
		var de *domain.Error
		if errors.As(err, &de) && status < 500 {
			msg = de.Message
		}
		renderInvoice(c, status, b, form, msg)
	}
}

// invoiceRefusal says why a billing refuses a card.
func invoiceRefusal(b billing.Billing) string {
	if !billing.Invoice(b).Closed {
		return "Um pagamento desta fatura já foi enviado: aguarde a confirmação."
	}
	return "Esta fatura não aceita mais pagamentos (" + billing.BillingStatusLabel(b.Status) + ")."
}

// renderInvoice renders the invoice page of b; a payment in processing
// reloads itself (a Refresh header: the CSP allows no inline script).
func renderInvoice(c *gin.Context, status int, page service.CreatedBilling, form invoiceForm, msg string) {
	b := page.Billing
	d := b.Details.V
	v := invoiceView{Action: "/billings/invoice/" + b.PageToken + "/pay", Due: b.DueDate.Format("02/01/2006"),
		Payer: b.Customer.V.Name, PayerTaxID: document.Mask(b.Customer.V.TaxID), Description: b.Description, Status: b.Status,
		StatusLabel: billing.BillingStatusLabel(b.Status), Amount: b.Amount, CardBrand: d.CardBrand, CardLast4: d.CardLast4,
		FailureReason: d.FailureReason, Form: form}
	st := billing.Invoice(b)
	v.ShowForm, v.Processing, v.Paid, v.Failed = st.TakesCard, st.Processing, st.Paid, st.Failed
	if v.Processing {
		c.Header("Refresh", invoiceRefreshSeconds)
	}
	render(c, status, "invoice.html", pageData{Title: "Fatura", Merchant: merchantName(page.Merchant), Error: msg, Invoice: v})
}

// optionalForm is a form value, nil when empty (a missing field is
// "required", not "not valid").
func optionalForm(v string) *string {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	return &v
}

// cardFormField is a form value as a card field, nil when empty.
func cardFormField(v string) *billing.CardField {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	f := billing.CardField(v)
	return &f
}
