package api

import "github.com/jangada/jangada/domain"

// The OpenAPI Docs of the API key's webhook endpoints.
var _ = documents(merchantDocs, map[string]Doc{
	"POST /webhooks/create": {
		Summary: "Create a webhook endpoint", Description: "Its secret (whsec_…) is in this answer only.",
		Body: domain.EndpointRequest{}, Data: createdWebhook{},
		Example: map[string]any{"url": "https://example.com/hooks", "events": []string{"payment.*", "transfer.completed"}},
	},
	"GET /webhooks/list":    {Summary: "List this key's webhook endpoints", Query: pageQuery{}, Data: webhookView{}, List: true},
	"GET /webhooks/get/:id": {Summary: "Get a webhook endpoint", Data: webhookView{}},
	"PATCH /webhooks/update/:id": {Summary: "Update a webhook endpoint", Body: domain.EndpointRequest{},
		Example: map[string]any{"events": []string{"payment.*", "transfer.*"}, "description": "Servidor de pedidos"}, Patch: true, Data: webhookView{}},
	"DELETE /webhooks/delete/:id": {Summary: "Delete a webhook endpoint", Data: deleted{}},
})
