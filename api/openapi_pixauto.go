package api

import "github.com/jangada/jangada/domain/pixauto"

// instructionQuery is the payment instruction list's query.
type instructionQuery struct {
	Page            int    `json:"page" jsonschema:"minimum=1,default=1"`
	PageSize        int    `json:"pageSize" jsonschema:"minimum=1,maximum=100,default=50"`
	AuthorizationID string `json:"authorizationId"`
	Status          string `json:"status"`
}

// statusQuery is the query of lists filtered by status.
type statusQuery struct {
	Page     int    `json:"page" jsonschema:"minimum=1,default=1"`
	PageSize int    `json:"pageSize" jsonschema:"minimum=1,maximum=100,default=50"`
	Status   string `json:"status"`
}

// The OpenAPI Docs of PIX automatic (feature pixAutomatic).
var _ = documents(merchantDocs, map[string]Doc{
	"POST /pix-automatic/authorizations/create": {Summary: "Ask a payer for a PIX automatic authorization (answers its consent QR)", Body: pixauto.AuthorizationRequest{},
		Example:      map[string]any{"customerId": "cus_0193c1f0-8a4b-7e2d-9c1a-3b5d7f9e1a2c", "description": "Mensalidade da academia", "frequency": "MONTHLY", "fixedAmount": 89.9, "startDate": "2035-01-10", "firstPaymentAmount": 89.9},
		Alternatives: map[string]any{"maxAmount": map[string]any{"customerId": "cus_0193c1f0-8a4b-7e2d-9c1a-3b5d7f9e1a2c", "description": "Conta de energia", "frequency": "MONTHLY", "maxAmount": 500, "startDate": "2035-01-10", "endDate": "2036-01-10"}}, Data: pixauto.View{}},
	"GET /pix-automatic/authorizations/list":          {Summary: "List PIX automatic authorizations", Query: statusQuery{}, Data: pixauto.View{}, List: true},
	"GET /pix-automatic/authorizations/get/:id":       {Summary: "Get a PIX automatic authorization", Data: pixauto.View{}},
	"DELETE /pix-automatic/authorizations/cancel/:id": {Summary: "Cancel a PIX automatic authorization", Data: pixauto.View{}},
	"POST /pix-automatic/payment-instructions/create": {Summary: "Schedule a debit under an authorization", Body: pixauto.InstructionRequest{},
		Example: map[string]any{"authorizationId": "pa_0193c3c4-2d8b-7a61-9e0f-6b4d2a8c1e75", "amount": 89.9, "dueDate": "2035-02-10"}, Data: pixauto.Instruction{}},
	"GET /pix-automatic/payment-instructions/list":           {Summary: "List payment instructions", Query: instructionQuery{}, Data: pixauto.Instruction{}, List: true},
	"GET /pix-automatic/payment-instructions/get/:id":        {Summary: "Get a payment instruction", Data: pixauto.Instruction{}},
	"DELETE /pix-automatic/payment-instructions/cancel/:id":  {Summary: "Cancel a scheduled payment instruction", Data: pixauto.Instruction{}},
	"POST /sandbox/pix-automatic/authorizations/:id/approve": {Summary: "Sandbox: the payer approves the authorization", Data: simulation{}},
	"POST /sandbox/pix-automatic/authorizations/:id/reject":  {Summary: "Sandbox: the payer rejects the authorization", Data: simulation{}},
})
