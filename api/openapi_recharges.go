package api

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/service"
)

// The OpenAPI Docs of mobile recharge (feature mobileRecharge).
var _ = documents(merchantDocs, map[string]Doc{
	"GET /mobile-recharge/provider/:phone": {Summary: "The operator of a mobile number and the amounts it sells",
		Description: "phone: a Brazilian mobile number with its area code, in any usual notation; 400 for anything else.",
		Data:        service.RechargeProvider{}},
	"POST /mobile-recharge/create": {Summary: "Top up a mobile phone",
		Description: "The amount must be one the number's operator offers; it is paid at once from withdrawable money. The recharge stays PENDING (canBeCancelled) until the operator delivers it.",
		Body:        mobile.RechargeRequest{}, Data: domain.PublicTransaction{}, Example: map[string]any{"phone": "(11) 93765-4321", "amount": 20}},
	"GET /mobile-recharge/list":                  {Summary: "List mobile recharges", Query: listQuery{}, Data: domain.PublicTransaction{}, List: true},
	"GET /mobile-recharge/get/:id":               {Summary: "Get a mobile recharge", Data: domain.PublicTransaction{}},
	"POST /mobile-recharge/cancel/:id":           {Summary: "Cancel a mobile recharge while canBeCancelled", Description: "The money returns exactly; a recharge the operator delivered is a 400.", Data: domain.PublicTransaction{}},
	"POST /sandbox/mobile-recharge/:id/complete": {Summary: "Sandbox: the operator delivers the recharge (fails it for an inactive number)", Data: simulation{}},
})
