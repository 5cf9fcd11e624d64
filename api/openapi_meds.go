package api

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/med"
)

// medListQuery is the MED list's query.
type medListQuery struct {
	Page     int    `json:"page" jsonschema:"minimum=1,default=1"`
	PageSize int    `json:"pageSize" jsonschema:"minimum=1,maximum=100,default=50"`
	Status   string `json:"status"`
}

// Enums are the query's closed sets, the list's own (listMEDs).
func (medListQuery) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Folded(med.MedStatuses...)}
}

// The OpenAPI Docs of MED disputes (always on: no feature).
var _ = documents(merchantDocs, map[string]Doc{
	"GET /meds/list":    {Summary: "List MED disputes", Query: medListQuery{}, Data: domain.PublicTransaction{}, List: true},
	"GET /meds/get/:id": {Summary: "Get a MED dispute by id or protocol", Data: domain.PublicTransaction{}},
	"POST /meds/:id/evidence": {
		Summary: "Send the defence of an OPEN dispute",
		Description: "JSON with description and attachments [{name, contentBase64}], or multipart/form-data with description and files. " +
			"At most 3 files of 256 KiB, PDF, PNG or JPEG (sniffed from the bytes). 403 while the automatic contest applies " +
			"(autoContest on and the dispute above R$ 50); 400 once the dispute is not OPEN or its defence deadline passed.",
		Body: med.EvidenceRequest{},
		Form: &formDoc{JSONOnly: []string{"attachments"}, Files: map[string]fileDoc{
			"files": {Types: med.EvidenceTypes, MaxBytes: med.MaxEvidenceFile, MaxItems: med.MaxEvidenceFiles}}},
		Example: map[string]any{"description": "Venda regular: o produto foi entregue em 12/11; segue a nota fiscal.", "attachments": []any{map[string]any{"name": "nota-fiscal.pdf", "contentBase64": "JVBERi0xLjQK"}}}, Data: domain.PublicTransaction{},
	},
	"POST /sandbox/meds": {
		Summary:     "Sandbox: an infraction report (MED) against a received PIX",
		Description: "amount defaults to the PIX's amount and may not exceed it.",
		Body:        med.MedOpeningRequest{},
		Example:     map[string]any{"transactionId": "0193c0e8-3b9a-7d4c-a1e2-5f7b9c3d1e86", "amount": 25.9, "reason": "O pagador relata um golpe"}, Data: simulation{},
	},
	"POST /sandbox/meds/:id/resolve": {Summary: "Sandbox: the processor's decision on a MED dispute", Body: med.MedResolveRequest{},
		Example: map[string]any{"status": "ACCEPTED"}, Data: simulation{}},
})
