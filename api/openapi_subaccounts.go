package api

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
)

// refQuery names a sub-account by id or externalReference.
type refQuery struct {
	ID                string `json:"id"`
	ExternalReference string `json:"externalReference"`
}

// subaccountListQuery is the sub-account list's query.
type subaccountListQuery struct {
	Page     int    `json:"page" jsonschema:"minimum=1,default=1"`
	PageSize int    `json:"pageSize" jsonschema:"minimum=1,maximum=100,default=50"`
	Status   string `json:"status"`
}

// portalQuery is the portal status query: one sub-account, or a page of all.
type portalQuery struct {
	ID                string `json:"id"`
	ExternalReference string `json:"externalReference"`
	Page              int    `json:"page" jsonschema:"minimum=1,default=1"`
	PageSize          int    `json:"pageSize" jsonschema:"minimum=1,maximum=100,default=50"`
}

// The OpenAPI Docs of sub-accounts (feature subaccounts).
var _ = documents(merchantDocs, map[string]Doc{
	"POST /subaccount/create": {
		Summary: "Create a sub-account", Description: "JSON, or multipart/form-data with the same fields and a document file (PJ).",
		Body: subaccount.CreateRequest{},
		Form: &formDoc{Files: map[string]fileDoc{"document": {Types: subaccount.DocumentTypes, MaxBytes: subaccount.MaxDocument,
			Description: "the PJ's proof document: a multipart create is a PJ (personType PJ, with cnpj and companyName)"}}},
		Example: map[string]any{"personType": "PF", "fullName": "Maria Silva", "cpf": "529.982.247-25", "birthDate": "1990-05-17", "postalCode": "01310-100", "externalReference": "loja-maria-7"}, Data: subaccount.View{},
	},
	"GET /subaccount/get/:id":                       {Summary: "Get a sub-account", Data: subaccount.View{}},
	"GET /subaccount/get-by-ref/:externalReference": {Summary: "Get a sub-account by externalReference", Data: subaccount.Lean{}},
	"GET /subaccount/list":                          {Summary: "List sub-accounts", Query: subaccountListQuery{}, Data: subaccount.View{}, List: true},
	"POST /subaccount/update": {Summary: "Update a sub-account", Body: subaccount.UpdateRequest{},
		Example:      map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57", "name": "Loja da Maria"},
		Alternatives: map[string]any{"status": map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57", "status": "DISABLED"}}, Data: subaccount.View{}},
	"POST /subaccount/delete": {Summary: "Delete an empty sub-account", Body: subaccount.IDRequest{},
		Example: map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57"}, Data: idOnly{}},
	"GET /subaccount/balance": {Summary: "A sub-account's balance", Query: refQuery{}, Data: subaccountBalanceView{}},
	"POST /subaccount/add-balance": {Summary: "Move money from the account into a sub-account", Body: subaccount.MoveRequest{},
		Example: map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57", "amount": 250, "description": "Repasse de vendas", "externalReference": "repasse-2025-11"}, Data: domain.PublicTransaction{}},
	"POST /subaccount/remove-balance": {Summary: "Move money from a sub-account back to the account", Body: subaccount.MoveRequest{},
		Example: map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57", "amount": 100, "description": "Resgate", "externalReference": "resgate-2025-11"}, Data: domain.PublicTransaction{}},
	"POST /subaccount/transfer": {Summary: "Move money between two sub-accounts", Body: subaccount.TransferRequest{},
		Example: map[string]any{"fromSubaccountId": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57", "toSubaccountId": "sub_0193c7a3-0b4f-7d21-8e6a-4f2c9b7d1a38", "amount": 75.5, "description": "Rateio", "externalReference": "rateio-2025-11"}, Data: domain.PublicTransaction{}},
	"POST /subaccount/lock": {Summary: "Lock a sub-account", Body: subaccount.LockRequest{},
		Example: map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57", "mode": "withdraw_only"}, Data: subaccount.View{}},
	"POST /subaccount/unlock": {Summary: "Unlock a sub-account", Body: subaccount.IDRequest{},
		Example: map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57"}, Data: unlocked{}},
	"POST /subaccount/set-limits": {Summary: "Set a sub-account's limits", Body: subaccount.LimitsRequest{},
		Example: map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57", "daily": 5000, "monthly": 50000, "perTransaction": nil}, Data: subaccount.View{}},
	"POST /subaccount/set-pricing": {Summary: "Set a sub-account's pricing", Body: subaccount.PricingRequest{},
		Example: map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57", "pixInPercent": 0.5, "pixInFixed": 0.1, "pixOutPercent": 0, "pixOutFixed": 0.5}, Data: subaccount.View{}},
	"GET /subaccount/pricing": {Summary: "Preview a sub-account's pricing", Query: refQuery{}, Data: subaccount.Preview{}},
	"POST /subaccount/portal/setup": {Summary: "Open a sub-account's portal", Body: subaccount.PortalSetupRequest{},
		Example:      map[string]any{"externalReference": "loja-maria-7", "email": "maria@example.com", "password": "Str0ng!pw2025"},
		Alternatives: map[string]any{"byId": map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57", "email": "maria@example.com", "password": "Str0ng!pw2025"}}, Data: portalReady{}},
	"GET /subaccount/portal/status": {
		Summary: "A sub-account's portal status, or a page of all", Description: "With id or externalReference: that sub-account's item; otherwise a page of items.",
		Query: portalQuery{}, Data: subaccount.PortalItem{}, OneOrList: true,
	},
	"POST /subaccount/portal/update-email": {Summary: "Change a portal's e-mail", Body: subaccount.PortalEmailRequest{},
		Example:      map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57", "email": "financeiro@example.com"},
		Alternatives: map[string]any{"byExternalReference": map[string]any{"externalReference": "loja-maria-7", "email": "financeiro@example.com"}}, Data: subaccount.PortalItem{}},
	"POST /subaccount/portal/revoke": {Summary: "Revoke a portal", Body: subaccount.Ref{},
		Example:      map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57"},
		Alternatives: map[string]any{"byExternalReference": map[string]any{"externalReference": "loja-maria-7"}}, Data: subaccount.PortalItem{}},
	"POST /subaccount/portal/reset-2fa": {Summary: "Reset a portal's two-factor authentication", Body: subaccount.Ref{},
		Example:      map[string]any{"id": "sub_0193c7a2-5d1e-7b3a-9f4e-2c8d6a1b0e57"},
		Alternatives: map[string]any{"byExternalReference": map[string]any{"externalReference": "loja-maria-7"}}, Data: subaccount.PortalItem{}},
})
