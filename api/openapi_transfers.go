package api

import "github.com/jangada/jangada/domain"

// transferExample is a PIX out to an e-mail key.
var transferExample = map[string]any{"amount": 10, "pixKey": "pagamentos@example.com", "pixKeyType": "EMAIL", "description": "Fornecedor"}

// transferAlternatives are PIX outs to a BR Code, which carries the key
// and the amount.
var transferAlternatives = map[string]any{
	"brCode": map[string]any{
		"pixCopyPaste": "00020126440014br.gov.bcb.pix0122pagamentos@example.com520400005303986540549.905802BR5915FORNECEDOR LTDA6009SAO PAULO62140510PEDIDO8812630406DD",
		"description":  "Pedido 8812",
	},
}

// The OpenAPI Docs of PIX out (and its legacy /payouts alias) and internal transfers.
var _ = documents(merchantDocs, map[string]Doc{
	"POST /transfer-pix/create": {
		Summary:     "Send a PIX",
		Description: "To a PIX key or a BR Code. The amount and fee are reserved at once; the transfer is PROCESSING (or held for security review) and becomes COMPLETED or FAILED a moment later (events transfer.completed, transfer.failed).",
		Body:        domain.TransferRequest{}, Data: domain.PublicTransaction{}, Example: transferExample, Alternatives: transferAlternatives,
	},
	"GET /transfer-pix/get/:id":    {Summary: "Get a PIX transfer", Data: domain.PublicTransaction{}},
	"GET /transfer-pix/status/:id": {Summary: "A PIX transfer's status", Data: domain.Lean{}},
	"GET /transfer-pix/list":       {Summary: "List PIX transfers", Query: listQuery{}, Data: domain.PublicTransaction{}, List: true},
	"POST /payouts/create":         {Summary: "Send a PIX (legacy alias of /transfer-pix/create)", Body: domain.TransferRequest{}, Data: domain.PublicTransaction{}, Example: transferExample, Alternatives: transferAlternatives},
	"GET /payouts/get/:id":         {Summary: "Get a PIX transfer (legacy alias)", Data: domain.PublicTransaction{}},
	"GET /payouts/status/:id":      {Summary: "A PIX transfer's status (legacy alias)", Data: domain.Lean{}},
	"GET /payouts/list":            {Summary: "List PIX transfers (legacy alias)", Query: listQuery{}, Data: domain.PublicTransaction{}, List: true},
	"POST /transfer-internal/create": {
		Summary: "Transfer to another Jangada account", Description: "Immediate: both statements change in one database transaction.",
		Body: domain.InternalRequest{}, Data: domain.PublicTransaction{},
		Example: map[string]any{"amount": 5, "recipientEmail": "loja@example.com", "description": "Repasse"},
	},
	"GET /transfer-internal/get/:id": {Summary: "Get an internal transfer", Data: domain.PublicTransaction{}},
	"GET /transfer-internal/list":    {Summary: "List internal transfers", Query: listQuery{}, Data: domain.PublicTransaction{}, List: true},
})
