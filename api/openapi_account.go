package api

import "github.com/jangada/jangada/domain"

// The OpenAPI Docs of the account's balance and statement.
var _ = documents(merchantDocs, map[string]Doc{
	"GET /account/balance":      {Summary: "The account's balance", Data: balanceView{}},
	"GET /account/transactions": {Summary: "The account's statement: every transaction, newest first", Query: listQuery{}, Data: domain.PublicTransaction{}, List: true},
})
