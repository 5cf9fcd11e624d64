package api

import "github.com/jangada/jangada/domain/schedule"

// The OpenAPI Docs of scheduled transfers.
var _ = documents(merchantDocs, map[string]Doc{
	"POST /transfer-scheduled/create": {
		Summary: "Schedule a transfer (once or recurring)", Body: schedule.CreateRequest{},
		Example: map[string]any{"label": "Repasse semanal ao fornecedor", "triggerType": "RECURRING", "recurrenceRule": map[string]any{"interval": "weekly", "dayOfWeek": 1, "time": "09:00", "timezone": "America/Sao_Paulo"}, "maxRuns": 52, "payload": map[string]any{"method": "pix_padrao", "amount": 150, "pixKey": "pagamentos@example.com", "pixKeyType": "EMAIL", "description": "Fornecedor", "coverFee": true}},
		Alternatives: map[string]any{"monthly": map[string]any{"label": "Pró-labore", "triggerType": "RECURRING",
			"recurrenceRule": map[string]any{"interval": "monthly", "dayOfMonth": 5, "time": "08:00"},
			"payload":        map[string]any{"method": "interna", "amount": 3000, "recipientEmail": "socio@example.com"}},
			"once": map[string]any{"label": "Aluguel de dezembro", "triggerType": "ONCE", "scheduledAt": "2035-12-05T09:00:00-03:00", "payload": map[string]any{"method": "interna", "amount": 2500, "recipientEmail": "loja@example.com", "description": "Aluguel"}}, "balanceThreshold": map[string]any{"label": "Excedente para o financeiro", "triggerType": "BALANCE_THRESHOLD", "balanceThreshold": 10000, "payload": map[string]any{"method": "interna", "amount": 5000, "recipientEmail": "financeiro@example.com"}}}, Data: schedule.Record{},
	},
	"GET /transfer-scheduled/list":    {Summary: "List scheduled transfers", Query: pageQuery{}, Data: schedule.Record{}, List: true},
	"GET /transfer-scheduled/get/:id": {Summary: "Get a scheduled transfer", Data: schedule.Record{}},
	"PATCH /transfer-scheduled/update/:id": {Summary: "Update, pause or resume a scheduled transfer", Body: schedule.UpdateRequest{},
		Example: map[string]any{"label": "Repasse quinzenal ao fornecedor", "maxRuns": 26}, Patch: true, Data: schedule.Record{}},
	"POST /transfer-scheduled/run-now/:id": {Summary: "Run a scheduled transfer now", Data: schedule.Record{}},
	"POST /transfer-scheduled/cancel/:id":  {Summary: "Cancel a scheduled transfer for good", Data: schedule.Record{}},
})
