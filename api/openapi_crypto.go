package api

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
)

// The OpenAPI Docs of crypto deposits and withdrawals (feature crypto).
var _ = documents(merchantDocs, map[string]Doc{
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
		Example:      map[string]any{"amount": 30, "payCurrency": "XRP", "address": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "extraId": "123456"},
		Alternatives: map[string]any{"withoutMemo": map[string]any{"amount": 100, "payCurrency": "ETH", "address": "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"}}},
	"POST /sandbox/payment-crypto/:id/pay":     {Summary: "Sandbox: the payer pays the crypto deposit", Data: simulation{}},
	"POST /sandbox/transfer-crypto/:id/settle": {Summary: "Sandbox: the network confirms the crypto withdrawal", Data: simulation{}},
	"POST /sandbox/transfer-crypto/:id/fail":   {Summary: "Sandbox: the network rejects the crypto withdrawal", Data: simulation{}},
})
