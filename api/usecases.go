package api

import (
	"context"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/auth.go -package=apimock . Auth
//go:generate go tool mockgen -destination=apimock/sandbox.go -package=apimock . Sandbox
//go:generate go tool mockgen -destination=apimock/transactions.go -package=apimock . Transactions
//go:generate go tool mockgen -destination=apimock/accounts.go -package=apimock . Accounts
//go:generate go tool mockgen -destination=apimock/idempotency.go -package=apimock . Idempotency

// The use cases the handlers call, one interface per product, implemented
// by package service (and by generated mocks in handler tests). A
// product's interface and its mock's go:generate line sit in its handler
// file (api/recharges.go); the ones here serve every product. Handlers
// bind, call one of these, and map the error: nothing else. Reads too go
// through a use case, so package api does not import package db
// (TestAPIDoesNotImportDB) and every route can be tested with the mocks
// (TestEveryRouteHasAHandlerTest).

// Auth resolves a presented API key and its account (one read).
type Auth interface {
	Resolve(ctx context.Context, secret string) (domain.APIKey, domain.Account, error)
}

// Transactions reads the records of the transactions table: charges, PIX
// outs, refunds, internal transfers, the statement and the balance.
type Transactions interface {
	Get(ctx context.Context, acct domain.Account, idOrRef string, types ...string) (domain.Transaction, error)
	List(ctx context.Context, acct domain.Account, f service.ListFilter) ([]domain.Transaction, int, error)
	Refund(ctx context.Context, acct domain.Account, ref string) (domain.Transaction, error)
	Balance(ctx context.Context, acct domain.Account) (service.Balance, error)
	PendingCopyPaste(ctx context.Context, chargeID string) (string, error)
}

// Accounts is the operators' use case: accounts, keys, adjustments and the
// ledger check (admin API).
type Accounts interface {
	Create(ctx context.Context, n domain.NewAccount) (domain.Account, error)
	Get(ctx context.Context, id string) (domain.Account, error)
	List(ctx context.Context, search string, page, pageSize int) ([]domain.Account, int, error)
	Patch(ctx context.Context, id string, merge func(domain.Account) (service.AccountPatch, error)) (domain.Account, error)
	CreateKey(ctx context.Context, accountID string, n domain.NewKey) (domain.APIKey, string, error)
	RevokeKey(ctx context.Context, id string) (domain.APIKey, error)
	Adjust(ctx context.Context, accountID string, n domain.NewAdjustment, idempotencyKey string) (domain.Transaction, error)
	VerifyLedger(ctx context.Context) ([]string, error)
}

// Idempotency keeps the first answer of each create sent with an
// Idempotency-Key (the idempotent middleware).
type Idempotency interface {
	Claim(ctx context.Context, accountID, key string, hash []byte) (service.IdempotencyClaim, error)
	Remember(ctx context.Context, accountID, key string, a service.StoredAnswer) error
	Forget(ctx context.Context, accountID, key string) error
}

// Sandbox is the use case of the sandbox routes: it finds the caller's
// resource and has the processor adapter's simulator (processor.Simulator)
// send the notice a real processor would.
type Sandbox interface {
	Pay(ctx context.Context, acct domain.Account, id string, payer *domain.Party) (service.Simulated, error)
	FailCharge(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	ExpireCharge(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	SettleTransfer(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	FailTransfer(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	SettleRefund(ctx context.Context, acct domain.Account, ref string) (service.Simulated, error)
	FailRefund(ctx context.Context, acct domain.Account, ref string) (service.Simulated, error)
	// A product's simulations: an interface of its own, in its
	// handler file.
	MEDSandbox
	PixAutomaticSandbox
	BillingsSandbox
	RechargesSandbox
	CryptoSandbox
}
