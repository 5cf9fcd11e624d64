package api

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/service"
)

// The OpenAPI Docs of mobile recharge (feature mobileRecharge) and crypto
// (feature crypto).
var _ = documents(merchantDocs, map[string]Doc{
	"GET /mobile-recharge/provider/:phone": {Summary: "The operator of a mobile number and the amounts it sells",
		Description: "phone: a Brazilian mobile number with its area code, in any usual notation; 400 for anything else.",
		Data:        service.RechargeProvider{}},
	"POST /mobile-recharge/create": {Summary: "Top up a mobile phone",
		Description: "The amount must be one the number's operator offers; it is paid at once from withdrawable money. The recharge stays PENDING (canBeCancelled) until the operator delivers it.",
		Body:        mobile.RechargeRequest{}, Data: domain.PublicTransaction{}, Example: map[string]any{"phone": "(11) 93765-4321", "amount": 20}},
	"GET /mobile-recharge/list":        {Summary: "List mobile recharges", Query: listQuery{}, Data: domain.PublicTransaction{}, List: true},
	"GET /mobile-recharge/get/:id":     {Summary: "Get a mobile recharge", Data: domain.PublicTransaction{}},
	"POST /mobile-recharge/cancel/:id": {Summary: "Cancel a mobile recharge while canBeCancelled", Description: "The money returns exactly; a recharge the operator delivered is a 400.", Data: domain.PublicTransaction{}},
	"POST /payment-crypto/create": {Summary: "Open a crypto deposit",
		Description: "A deposit address of its own, payAmount at the processor's rate, expiresAt; paid, the amount is credited in BRL at that quote.",
		Body:        crypto.CryptoDepositRequest{}, Data: domain.PublicTransaction{}, Example: map[string]any{"amount": 100, "payCurrency": "BTC"}},
	"GET /payment-crypto/get/:id": {Summary: "Get a crypto deposit", Data: domain.PublicTransaction{}},
	"GET /payment-crypto/list":    {Summary: "List crypto deposits", Query: listQuery{}, Data: domain.PublicTransaction{}, List: true},
	"POST /transfer-crypto/quote": {Summary: "Quote a crypto withdrawal", Description: "Usable once by /transfer-crypto/create until expiresAt.",
		Body: crypto.CryptoQuoteRequest{}, Data: crypto.PublicCryptoQuote{}, Example: map[string]any{"amount": 100, "payCurrency": "ETH"}},
	"POST /transfer-crypto/create": {Summary: "Send crypto at a quote",
		Description: "The address is checked with its network's checksum; extraId is required for memo currencies; an expired or used quote is a 400.",
		Body:        crypto.CryptoWithdrawalRequest{}, Data: domain.PublicTransaction{},
		Example: map[string]any{"amount": 100, "payCurrency": "ETH", "address": "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "quoteId": "cq_…"}},
	"GET /transfer-crypto/get/:id": {Summary: "Get a crypto withdrawal", Data: domain.PublicTransaction{}},
	"GET /transfer-crypto/list":    {Summary: "List crypto withdrawals", Query: listQuery{}, Data: domain.PublicTransaction{}, List: true},
	"POST /transfer-crypto-auto/create": {Summary: "Quote and send crypto in one call", Body: crypto.CryptoWithdrawalRequest{}, Data: domain.PublicTransaction{},
		Example: map[string]any{"amount": 30, "payCurrency": "XRP", "address": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "extraId": "123456"}},
	"POST /sandbox/mobile-recharge/:id/complete": {Summary: "Sandbox: the operator delivers the recharge (fails it for an inactive number)", Data: simulation{}},
	"POST /sandbox/payment-crypto/:id/pay":       {Summary: "Sandbox: the payer pays the crypto deposit", Data: simulation{}},
	"POST /sandbox/transfer-crypto/:id/settle":   {Summary: "Sandbox: the network confirms the crypto withdrawal", Data: simulation{}},
	"POST /sandbox/transfer-crypto/:id/fail":     {Summary: "Sandbox: the network rejects the crypto withdrawal", Data: simulation{}},
})
