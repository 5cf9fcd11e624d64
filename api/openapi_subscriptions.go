package api

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
)

// subscriptionQuery is the subscription list's query.
type subscriptionQuery struct {
	Page     int    `json:"page" jsonschema:"minimum=1,default=1"`
	PageSize int    `json:"pageSize" jsonschema:"minimum=1,maximum=100,default=50"`
	Status   string `json:"status"`
}

// Enums are the query's closed sets, the list's own (listSubscriptions).
func (subscriptionQuery) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Folded(billing.SubscriptionStatuses...)}
}

// The OpenAPI Docs of subscriptions.
var _ = documents(merchantDocs, map[string]Doc{
	"POST /subscriptions/create": {
		Summary:     "Create a subscription (one billing per cycle)",
		Description: "A billing's fields (card fields as in billings, for CARD_CREDIT) plus the cycle; nextDueDate is the first cycle's due date, and every later one is computed from it (month ends clamp to the month's last day and return to the anchor's day).",
		Body:        billing.SubscriptionRequest{},
		Example:     map[string]any{"method": "BOLETO", "amount": 89.9, "cycle": "MONTHLY", "nextDueDate": "2035-01-10", "description": "Plano mensal", "customer": map[string]any{"name": "Maria Silva", "taxId": "529.982.247-25", "email": "maria@example.com"}, "externalReference": "assinatura-42"},
		Alternatives: map[string]any{"storedCustomer": map[string]any{"method": "PIX", "amount": 89.9, "cycle": "MONTHLY", "nextDueDate": "2035-01-10",
			"customer": map[string]any{"id": "cus_0193c1f0-8a4b-7e2d-9c1a-3b5d7f9e1a2c"}}}, Data: billing.SubscriptionRecord{},
	},
	"GET /subscriptions/list":        {Summary: "List subscriptions", Query: subscriptionQuery{}, Data: billing.SubscriptionRecord{}, List: true},
	"GET /subscriptions/get/:id":     {Summary: "Get a subscription by subscriptionId or externalId", Data: billing.SubscriptionRecord{}},
	"POST /subscriptions/cancel/:id": {Summary: "Cancel a subscription (its pending billing is canceled)", Data: billing.SubscriptionRecord{}},
})
