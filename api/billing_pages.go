package api

import (
	"bytes"
	"html/template"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/boleto"
	"github.com/jangada/jangada/domain"
)

// The public pages of billings: a boleto's printable slip (its barcode
// drawn as Interleaved 2 of 5) and a debit card billing's hosted invoice
// (api/billing_invoice.go). Each is found by the billing's page token (128 random bits), never by
// its id, and shows only what the payer needs.

var slipPage = template.Must(template.New("slip").Parse(`<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Boleto {{.ID}}</title>
<style>body{font-family:sans-serif;max-width:760px;margin:2em auto}td{padding:4px 8px;border:1px solid #999}
.line{font-family:monospace;font-size:1.2em;letter-spacing:1px}@media print{button{display:none}}</style></head>
<body><h1>Boleto</h1>
<p class="line">{{.Line}}</p>
<table>
<tr><td>Beneficiário</td><td>{{.Beneficiary}}</td></tr>
<tr><td>Pagador</td><td>{{.Payer}} ({{.PayerTaxID}})</td></tr>
<tr><td>Vencimento</td><td>{{.Due}}</td></tr>
<tr><td>Valor</td><td>R$ {{.Amount}}</td></tr>
<tr><td>Situação</td><td>{{.Status}}</td></tr>
<tr><td>Descrição</td><td>{{.Description}}</td></tr>
</table>
<div class="barcode" data-barcode="{{.Barcode}}">{{.Bars}}</div>
<button onclick="window.print()">Imprimir</button>
</body></html>`))

type billingPageData struct {
	ID, Line, Barcode, Beneficiary, Payer, PayerTaxID, Due, Amount, Status, Description string
	Bars                                                                                template.HTML
}

func (s *Server) billingPage(c *gin.Context, method string) (domain.Billing, billingPageData, bool) {
	v, err := s.Billings.Page(c.Request.Context(), c.Param("token"))
	if err != nil || v.Billing.Method != method {
		notFound(c)
		return domain.Billing{}, billingPageData{}, false
	}
	b := v.Billing
	return b, billingPageData{ID: b.ID, Payer: b.Customer.V.Name, PayerTaxID: b.Customer.V.TaxID, Due: b.DueDate.Format("02/01/2006"),
		Amount: b.Amount.String(), Status: domain.BillingStatusLabel(b.Status), Description: b.Description}, true
}

// billingSlip serves a boleto's printable slip.
func (s *Server) billingSlip(c *gin.Context) {
	b, d, found := s.billingPage(c, domain.MethodBoleto)
	if !found {
		return
	}
	svg, err := boleto.SVG(b.Details.V.Barcode, 1, 50)
	if err != nil {
		fail(c, err)
		return
	}
	d.Line, d.Barcode, d.Bars, d.Beneficiary = boleto.Format(b.Details.V.DigitableLine), b.Details.V.Barcode, template.HTML(svg), "Jangada"
	servePage(c, slipPage, d)
}

func servePage(c *gin.Context, t *template.Template, d billingPageData) {
	var buf bytes.Buffer
	if err := t.Execute(&buf, d); err != nil {
		fail(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.Header("Referrer-Policy", "no-referrer")
	c.Data(http.StatusOK, "text/html; charset=utf-8", buf.Bytes())
}
