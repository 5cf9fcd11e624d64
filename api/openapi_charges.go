package api

import "github.com/jangada/jangada/domain"

// The OpenAPI Docs of PIX charges and refunds (routes in api/routes.go).
var _ = documents(merchantDocs, map[string]Doc{
	"POST /payment-pix/create": {
		Summary:     "Create a PIX charge",
		Description: "Answers the BR Code (copyPaste), its QR as a PNG data URL and a public QR URL. The charge becomes COMPLETED when paid (event payment.paid), CANCELED once expirationSeconds pass unpaid.",
		Body:        domain.ChargeRequest{}, Data: chargeCreated{},
		Example: map[string]any{"amount": 25.9, "description": "Pedido 1042", "expirationSeconds": 3600, "externalReference": "order-1042"},
	},
	"GET /payment-pix/get/:id":    {Summary: "Get a PIX charge by id or externalReference", Data: domain.PublicTransaction{}},
	"GET /payment-pix/status/:id": {Summary: "A PIX charge's status", Data: domain.Lean{}},
	"GET /payment-pix/list":       {Summary: "List PIX charges", Query: listQuery{}, Data: domain.PublicTransaction{}, List: true},
	"POST /refunds/create": {
		Summary: "Refund a received PIX", Description: "The whole gross amount of the deposit goes back to the payer; the refund settles asynchronously (event payment.refunded).",
		Body: domain.RefundRequest{}, Data: domain.PublicTransaction{},
		Example: map[string]any{"transactionId": "3f0c…", "amount": 25.9, "description": "Pedido cancelado"},
		// The deposit named by its end-to-end id instead.
		Alternatives: map[string]any{"byE2eId": map[string]any{"e2eId": "E18236120202611291200s0123456789", "amount": 25.9}},
	},
	"GET /refunds/get/:id": {Summary: "Get a refund by transaction id, refundId or e2eId", Data: domain.PublicTransaction{}},
	"GET /refunds/list":    {Summary: "List refunded PIX charges", Query: listQuery{}, Data: domain.PublicTransaction{}, List: true},
})
