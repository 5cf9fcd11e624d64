package api

import "github.com/jangada/jangada/domain/schedule"

// The OpenAPI Docs of scheduled transfers.
var _ = documents(merchantDocs, map[string]Doc{
	"POST /transfer-scheduled/create": {
		Summary: "Schedule a transfer (once or recurring)", Body: schedule.CreateRequest{}, Data: schedule.Record{},
	},
	"GET /transfer-scheduled/list":         {Summary: "List scheduled transfers", Query: pageQuery{}, Data: schedule.Record{}, List: true},
	"GET /transfer-scheduled/get/:id":      {Summary: "Get a scheduled transfer", Data: schedule.Record{}},
	"PATCH /transfer-scheduled/update/:id": {Summary: "Update, pause or resume a scheduled transfer", Body: schedule.UpdateRequest{}, Patch: true, Data: schedule.Record{}},
	"POST /transfer-scheduled/run-now/:id": {Summary: "Run a scheduled transfer now", Data: schedule.Record{}},
	"POST /transfer-scheduled/cancel/:id":  {Summary: "Cancel a scheduled transfer for good", Data: schedule.Record{}},
})
