package api

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/dashboard"
	"github.com/jangada/jangada/service"
)

// deliveriesQuery is the delivery history's query.
type deliveriesQuery struct {
	Page     int    `json:"page" jsonschema:"minimum=1,default=1"`
	PageSize int    `json:"pageSize" jsonschema:"minimum=1,maximum=100,default=50"`
	Status   string `json:"status" jsonschema:"description=only deliveries in this status"`
}

// searchOnlyQuery is the query of a page filtered by a search text.
type searchOnlyQuery struct {
	Page     int    `json:"page" jsonschema:"minimum=1,default=1"`
	PageSize int    `json:"pageSize" jsonschema:"minimum=1,maximum=100,default=50"`
	Search   string `json:"search"`
}

// The OpenAPI Docs of the admin API (adminRoutes in api/routes.go).
var _ = documents(adminDocs, map[string]Doc{
	"POST /accounts": {
		Summary: "Create an account", Body: domain.AccountRequest{}, Data: domain.Account{},
		Example: map[string]any{"name": "Loja Exemplo", "email": "loja@example.com", "document": "11222333000181"},
	},
	"GET /debug/pprof/*name": {Summary: "Go runtime profiles (operators' listener only)", Description: "net/http/pprof: name is a profile (heap, goroutine, profile?seconds=N, …); the answer is not an envelope.", Raw: "application/octet-stream"},
	"GET /accounts": {
		Summary: "List accounts, newest first", Description: "search finds an account by its id, or by part of its name, e-mail or document.",
		Query: searchOnlyQuery{}, Data: domain.Account{}, List: true,
	},
	"GET /accounts/:id": {Summary: "Get an account", Data: domain.Account{}},
	"PATCH /accounts/:id": {
		Summary: "Change an account: verified, features, fees, securityReviewThreshold", Body: patchAccountBody{}, Patch: true, Data: domain.Account{},
		Example: map[string]any{"verified": true, "features": map[string]any{"subaccounts": true}},
	},
	"POST /accounts/:id/keys": {
		Summary: "Create an API key", Description: "The secret (key) is in this answer only.",
		Body: domain.KeyRequest{}, Data: createdKey{},
		Example: map[string]any{"name": "backend", "permissions": []string{"payment-pix/*", "transfer-pix/create"}},
	},
	"DELETE /keys/:id":               {Summary: "Revoke an API key (its WebSocket connections close at once)", Data: domain.APIKey{}},
	"POST /accounts/:id/adjustments": {Summary: "Post a ledger adjustment", Body: domain.AdjustmentRequest{}, Data: domain.PublicTransaction{}, Example: map[string]any{"amount": 100, "description": "Saldo inicial"}},
	"POST /transfers/:id/review":     {Summary: "Approve or reject a withdrawal (PIX out or crypto) held for security review", Body: domain.ReviewRequest{}, Data: reviewed{}, Example: map[string]any{"decision": "approve"}},
	"GET /ledger/verify":             {Summary: "Check the ledger's invariants", Data: ledgerCheck{}},
	"POST /accounts/:id/webhooks": {Summary: "Create a dashboard webhook endpoint (the whole account's events)", Body: domain.EndpointRequest{},
		Example: map[string]any{"url": "https://example.com/hooks", "events": []string{"*"}, "description": "ERP da loja"}, Data: createdWebhook{}},
	"POST /accounts/:id/users": {
		Summary: "Invite a dashboard user", Description: "setPasswordUrl (absolute, single use, valid 24 h) is in this answer only.",
		Body: dashboard.InviteRequest{}, Data: invitedUser{}, Example: map[string]any{"email": "dev@example.com", "role": "developer"},
	},
	"GET /accounts/:id/webhooks":     {Summary: "List an account's webhook endpoints", Query: pageQuery{}, Data: webhookView{}, List: true},
	"GET /webhooks/:id/deliveries":   {Summary: "An endpoint's deliveries, newest first, with their attempts", Query: deliveriesQuery{}, Data: service.Delivery{}, List: true},
	"GET /deliveries/:id":            {Summary: "A delivery with its attempts", Data: service.Delivery{}},
	"POST /webhooks/:id/test":        {Summary: "Send a webhook.test event to an endpoint (signed, recorded in its deliveries)", Data: service.SentTest{}},
	"POST /deliveries/:id/redeliver": {Summary: "Send a delivery once more, now, with the same delivery id", Data: redelivery{}},
})
