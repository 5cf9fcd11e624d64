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
	"POST /customers/create":           {Summary: "Create a customer", Body: store.CustomerRequest{}, Data: store.Customer{}},
	"GET /customers/get/:id":           {Summary: "Get a customer", Data: store.Customer{}},
	"GET /customers/list":              {Summary: "List customers", Query: customerQuery{}, Data: store.Customer{}, List: true},
	"PATCH /customers/update/:id":      {Summary: "Update a customer", Body: store.CustomerUpdateRequest{}, Patch: true, Data: store.Customer{}},
	"DELETE /customers/delete/:id":     {Summary: "Delete a customer", Data: deleted{}},
	"POST /payment-links/create":       {Summary: "Create a payment link", Body: checkout.PaymentLinkRequest{}, Data: linkView{}},
	"GET /payment-links/get/:id":       {Summary: "Get a payment link", Data: linkView{}},
	"GET /payment-links/list":          {Summary: "List payment links", Query: searchQuery{}, Data: linkView{}, List: true},
	"PATCH /payment-links/update/:id":  {Summary: "Update a payment link", Body: checkout.PaymentLinkUpdate{}, Patch: true, Data: linkView{}},
	"PATCH /payment-links/status/:id":  {Summary: "Activate or deactivate a payment link", Body: checkout.LinkStatusRequest{}, Data: linkView{}},
	"DELETE /payment-links/delete/:id": {Summary: "Delete a payment link", Data: deleted{}},
	"POST /payment-links/checkout": {
		Summary: "Check out a payment link", Description: "Answers the session with its PIX copyPaste and QR, or for CRYPTO (account feature crypto, else 403) its deposit's address, payCurrency (USDT by default), payAmount and rate; the session becomes PAID with its charge or deposit (event payment_link.paid) and EXPIRED with it.",
		Body: checkout.CheckoutRequest{}, Data: checkoutView{},
	},
	"GET /payment-links/sessions/get/:sessionId": {Summary: "Get a checkout session", Data: checkout.SessionView{}},
})
