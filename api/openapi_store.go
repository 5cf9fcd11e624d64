package api

import (
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/store"
)

// customerQuery is the customer list's query.
type customerQuery struct {
	Page     int    `json:"page" jsonschema:"minimum=1,default=1"`
	PageSize int    `json:"pageSize" jsonschema:"minimum=1,maximum=100,default=50"`
	Search   string `json:"search"`
	Status   string `json:"status"`
	Type     string `json:"type"`
}

// searchQuery is the query of lists filtered by status and a search text.
type searchQuery struct {
	Page     int    `json:"page" jsonschema:"minimum=1,default=1"`
	PageSize int    `json:"pageSize" jsonschema:"minimum=1,maximum=100,default=50"`
	Status   string `json:"status"`
	Search   string `json:"search"`
}

// The OpenAPI Docs of the store: customers and payment links.
var _ = documents(merchantDocs, map[string]Doc{
	"POST /customers/create": {Summary: "Create a customer", Body: store.CustomerRequest{},
		Example: map[string]any{"name": "Maria Silva", "email": "maria@example.com", "document": "529.982.247-25", "type": "PF", "phone": "(11) 98765-4321", "whatsapp": "(11) 98765-4321", "city": "São Paulo", "state": "SP"}, Data: store.Customer{}},
	"GET /customers/get/:id": {Summary: "Get a customer", Data: store.Customer{}},
	"GET /customers/list":    {Summary: "List customers", Query: customerQuery{}, Data: store.Customer{}, List: true},
	"PATCH /customers/update/:id": {Summary: "Update a customer", Body: store.CustomerUpdateRequest{},
		Example: map[string]any{"phone": "(11) 91234-5678", "city": "Campinas", "state": "SP"}, Patch: true, Data: store.Customer{}},
	"DELETE /customers/delete/:id": {Summary: "Delete a customer", Data: deleted{}},
	"POST /payment-links/create": {Summary: "Create a payment link", Body: checkout.PaymentLinkRequest{},
		Example: map[string]any{"name": "Curso de fotografia", "description": "Acesso vitalício às aulas gravadas", "allowedMethods": []string{"PIX"}, "fixedAmount": 197, "customerMode": "REQUIRED", "status": "ACTIVE"}, Data: linkView{}},
	"GET /payment-links/get/:id": {Summary: "Get a payment link", Data: linkView{}},
	"GET /payment-links/list":    {Summary: "List payment links", Query: searchQuery{}, Data: linkView{}, List: true},
	"PATCH /payment-links/update/:id": {Summary: "Update a payment link", Body: checkout.PaymentLinkUpdate{},
		Example: map[string]any{"fixedAmount": 167, "description": "Preço de lançamento"}, Patch: true, Data: linkView{}},
	"PATCH /payment-links/status/:id": {Summary: "Activate or deactivate a payment link", Body: checkout.LinkStatusRequest{},
		Example: map[string]any{"status": "INACTIVE"}, Data: linkView{}},
	"DELETE /payment-links/delete/:id": {Summary: "Delete a payment link", Data: deleted{}},
	"POST /payment-links/checkout": {
		Summary: "Check out a payment link", Description: "Answers the session with its PIX copyPaste and QR, or for CRYPTO (account feature crypto, else 403) its deposit's address, payCurrency (USDT by default), payAmount and rate; the session becomes PAID with its charge or deposit (event payment_link.paid) and EXPIRED with it.",
		Body:         checkout.CheckoutRequest{},
		Example:      map[string]any{"linkId": "plink_0193c2aa-6e1d-7f40-a2b3-7c9e5d1f3a64", "method": "PIX", "payer": map[string]any{"name": "João Souza", "document": "111.444.777-35", "email": "joao@example.com"}, "couponCode": "BLACKFRIDAY", "externalReference": "pedido-8812"},
		Alternatives: map[string]any{"crypto": map[string]any{"linkId": "plink_0193c2aa-6e1d-7f40-a2b3-7c9e5d1f3a64", "method": "CRYPTO", "payCurrency": "USDT", "externalReference": "pedido-8813"}}, Data: checkoutView{},
	},
	"GET /payment-links/sessions/get/:sessionId": {Summary: "Get a checkout session", Data: checkout.SessionView{}},
})
