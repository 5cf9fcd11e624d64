package api

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/service"
)

// billingListQuery is the billings list's query.
type billingListQuery struct {
	Page              int    `json:"page,omitempty" jsonschema:"minimum=1"`
	PageSize          int    `json:"pageSize,omitempty" jsonschema:"minimum=1,maximum=100"`
	Status            string `json:"status,omitempty"`
	Method            string `json:"method,omitempty"`
	CustomerID        string `json:"customerId,omitempty"`
	ExternalReference string `json:"externalReference,omitempty"`
	DateFrom          string `json:"dateFrom,omitempty"`
	DateTo            string `json:"dateTo,omitempty"`
}

// Enums are the query's closed sets, the list's own (listBillings).
func (billingListQuery) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Folded(billing.BillingStatuses...), "method": domain.BillingMethodEnum}
}

// The OpenAPI Docs of billings (routes in api/routes.go).
var _ = documents(merchantDocs, map[string]Doc{
	"POST /billings/create": {
		Summary: "Create a billing (boleto, credit, debit or voucher card, PIX)",
		Description: "A boleto answers its digitableLine and a printable bankSlipUrl; a PIX billing its pixCopyPaste and pixEncodedImage; " +
			"CARD_DEBIT an invoiceUrl where the payer pays; CARD_CREDIT and CARD_VOUCHER are charged on the cardToken or creditCard " +
			"(tokenized at once: the number is never stored). dueDate defaults to today + 3 days (America/Sao_Paulo).",
		Body: billing.BillingRequest{}, Data: billing.PublicBilling{},
		Example: map[string]any{"method": "BOLETO", "amount": 150, "description": "Mensalidade",
			"customer": map[string]any{"name": "Maria Silva", "taxId": "52998224725"}, "externalReference": "fatura-77"},
		Alternatives: map[string]any{"storedCustomer": map[string]any{"method": "PIX", "amount": 89.9, "description": "Mensalidade",
			"customer": map[string]any{"id": "cus_0193c1f0-8a4b-7e2d-9c1a-3b5d7f9e1a2c"}}},
	},
	"POST /billings/tokenize-card": {
		Summary: "Tokenize a card for later billings", Body: billing.TokenizeCardRequest{},
		Example: map[string]any{"customer": map[string]any{"id": "cus_0193c1f0-8a4b-7e2d-9c1a-3b5d7f9e1a2c"}, "creditCard": map[string]any{"holderName": "MARIA SILVA", "number": "4111111111111111", "expiryMonth": "12", "expiryYear": "2035", "ccv": "123"}, "creditCardHolderInfo": map[string]any{"name": "Maria Silva", "email": "maria@example.com", "cpfCnpj": "529.982.247-25", "postalCode": "01310-100", "addressNumber": "1000", "phone": "11987654321"}, "remoteIp": "203.0.113.7"}, Data: service.CardTokenView{},
		Description: "Answers creditCardToken, creditCardBrand and creditCardNumber (the last four digits only).",
	},
	"GET /billings/get/:id": {Summary: "Get a billing by id or externalId", Data: billing.PublicBilling{}},
	"GET /billings/list":    {Summary: "List billings", Query: billingListQuery{}, Data: billing.PublicBilling{}, List: true},
	"POST /billings/refund": {
		Summary: "Refund a paid billing (whole or part)",
		Description: "Without amount, what is left; less than what is left makes it PARTIALLY_REFUNDED. More than what is left is a 400 and moves nothing. " +
			"The answer waits (up to 5 s) for the processor: accepted, the billing with the refund COMPLETED; refused, a 400 (nothing refunded, the billing as before, the refund FAILED in refunds); " +
			"not known in time, the billing with the refund PENDING in refunds (its outcome then shows there). The sandbox refuses a refund whose amount ends in ,13.",
		Body: billing.BillingRefundRequest{}, Data: billing.PublicBilling{},
		Example: map[string]any{"id": "bil_…", "amount": 50, "description": "Devolução parcial"},
	},
	"POST /sandbox/billings/:id/pay":     {Summary: "Sandbox: the billing is paid (a PIX billing through its charge)", Data: simulation{}},
	"POST /sandbox/billings/:id/overdue": {Summary: "Sandbox: the billing's due date passes now", Data: simulation{}},
})
