package api

import (
	"github.com/jangada/jangada/domain/store"
)

// The OpenAPI Docs of the store's products.
var _ = documents(merchantDocs, map[string]Doc{
	"POST /products/create": {Summary: "Create a product",
		Description: "Deliveries: LINK (redirectUrl), TEXT_INFINITE (richContent), TEXT_LINES (linesText: one line handed out per sale).",
		Body:        store.ProductRequest{},
		Example:     map[string]any{"name": "Curso de fotografia", "sku": "CURSO-FOTO-01", "description": "Acesso vitalício às aulas gravadas", "price": 197, "status": "ACTIVE", "deliveries": []any{map[string]any{"type": "LINK", "redirectUrl": "https://example.com/cursos/fotografia"}}}, Data: store.ProductView{}},
	"GET /products/get/:id": {Summary: "Get a product", Data: store.ProductView{}},
	"GET /products/list":    {Summary: "List products", Query: searchQuery{}, Data: store.ProductView{}, List: true},
	"PATCH /products/update/:id": {Summary: "Update a product", Description: "deliveries, when sent, replace the product's; a TEXT_LINES linesText replaces the lines not handed out yet.", Body: store.ProductUpdateRequest{},
		Example: map[string]any{"price": 167, "status": "ACTIVE"}, Patch: true, Data: store.ProductView{}},
	"DELETE /products/delete/:id": {Summary: "Delete a product", Data: deleted{}},
})
