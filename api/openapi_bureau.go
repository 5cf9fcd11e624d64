package api

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/bureau"
)

// dunningQuery is the dunning list's query (the spec's own paging).
type dunningQuery struct {
	Offset  int    `json:"offset" jsonschema:"minimum=0,default=0"`
	Limit   int    `json:"limit" jsonschema:"minimum=1,maximum=100,default=10"`
	Status  string `json:"status"`
	Type    string `json:"type"`
	Payment string `json:"payment" jsonschema:"description=the billing id"`
}

// Enums are the query's closed sets, the list's own (listDunnings).
func (dunningQuery) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Folded(bureau.DunningStatuses...), "type": bureau.DunningTypes}
}

// simulateQuery is the dunning simulation's query.
type simulateQuery struct {
	Payment string `json:"payment" jsonschema:"required,description=the billing id"`
}

// The OpenAPI Docs of the credit bureau.
var _ = documents(merchantDocs, map[string]Doc{
	"GET /bureau/dunnings/simulate": {Summary: "Whether a dunning of a billing can be requested, its fee and value", Query: simulateQuery{}, Data: bureau.DunningSimulation{}},
	"POST /bureau/dunnings/create": {
		Summary:     "Send an overdue billing's debtor to the credit bureau (fee R$ 12.90)",
		Description: "multipart/form-data with these fields and the file `documents` (PDF, PNG or JPEG, at most 1000 KiB); the same fields as JSON take `documents` as {name, contentBase64}.",
		Body:        bureau.DunningRequest{},
		Form: &formDoc{JSONOnly: []string{"documents"}, Files: map[string]fileDoc{
			"documents": {Types: bureau.DunningDocumentTypes, MaxBytes: bureau.MaxDunningDocument, Required: true}}},
		Example: map[string]any{"payment": "bil_0193c0d2-7f3a-7b5e-8c1d-9a2e4f6b8d13", "type": "CREDIT_BUREAU", "description": "Mensalidade de outubro em atraso", "customerName": "Maria Silva", "customerCpfCnpj": "529.982.247-25", "customerPrimaryPhone": "(11) 98765-4321", "customerEmail": "maria@example.com", "customerPostalCode": "01310-100", "customerAddress": "Av. Paulista", "customerAddressNumber": "1000", "customerComplement": "Sala 12", "customerProvince": "Bela Vista", "customerCity": "São Paulo", "customerState": "SP", "documents": map[string]any{"name": "contrato.pdf", "contentBase64": "JVBERi0xLjQK"}}, Data: bureau.DunningView{},
	},
	"GET /bureau/dunnings/list": {
		Summary:     "List dunnings",
		Description: "data is the spec's own envelope: {object: \"list\", hasMore, totalCount, limit, offset, data}.",
		Query:       dunningQuery{}, Data: dunningList{},
	},
	"GET /bureau/dunnings/get/:id": {Summary: "Get a dunning", Data: bureau.DunningView{}},
	"POST /bureau/reports/create": {Summary: "Ask for a credit report of a customer's CPF/CNPJ (fee R$ 19.90)", Body: bureau.ReportRequest{},
		Example: map[string]any{"customer": "cus_0193c1f0-8a4b-7e2d-9c1a-3b5d7f9e1a2c", "cpfCnpj": "529.982.247-25"}, Data: bureau.Report{}},
	"GET /bureau/reports/list":    {Summary: "List credit reports", Query: pageQuery{}, Data: bureau.Report{}, List: true},
	"GET /bureau/reports/get/:id": {Summary: "Get a credit report", Data: bureau.Report{}},
})
