package api

import (
	"context"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/schedule"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/subaccount"
)

//go:generate go tool mockgen -destination=apimock/auth.go -package=apimock . Auth
//go:generate go tool mockgen -destination=apimock/charges.go -package=apimock . Charges
//go:generate go tool mockgen -destination=apimock/transfers.go -package=apimock . Transfers
//go:generate go tool mockgen -destination=apimock/refunds.go -package=apimock . Refunds
//go:generate go tool mockgen -destination=apimock/internal.go -package=apimock . Internal
//go:generate go tool mockgen -destination=apimock/schedules.go -package=apimock . Schedules
//go:generate go tool mockgen -destination=apimock/webhooks.go -package=apimock . Webhooks
//go:generate go tool mockgen -destination=apimock/simulator.go -package=apimock . Simulator
//go:generate go tool mockgen -destination=apimock/subaccounts.go -package=apimock . Subaccounts

// The use cases the handlers call, one interface per product, implemented
// by package service (and by generated mocks in handler tests). Handlers
// bind, call one of these, and map the error: nothing else.

// Auth resolves a presented API key and its account (one read).
type Auth interface {
	Resolve(ctx context.Context, secret string) (domain.APIKey, domain.Account, error)
}

// Charges creates PIX charges.
type Charges interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in domain.NewCharge) (service.CreatedCharge, error)
}

// Transfers sends PIX and takes security review decisions.
type Transfers interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in domain.NewTransfer) (domain.Transaction, error)
	Review(ctx context.Context, id, decision string) error
}

// Refunds refunds received PIX.
type Refunds interface {
	Create(ctx context.Context, acct domain.Account, in domain.NewRefund) (domain.Transaction, error)
}

// Internal moves money between accounts.
type Internal interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in domain.NewInternal) (domain.Transaction, error)
}

// Schedules manages scheduled transfers.
type Schedules interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in schedule.NewSchedule) (schedule.Record, error)
	Get(ctx context.Context, acct domain.Account, id string) (schedule.Record, error)
	List(ctx context.Context, acct domain.Account, page, pageSize int) ([]schedule.Schedule, int, error)
	Update(ctx context.Context, acct domain.Account, id string, p schedule.Patch) (schedule.Record, error)
	RunNow(ctx context.Context, acct domain.Account, id string) (schedule.Record, error)
	Cancel(ctx context.Context, acct domain.Account, id string) (schedule.Record, error)
}

// Webhooks manages webhook endpoints.
type Webhooks interface {
	Create(ctx context.Context, accountID string, keyID *string, p domain.EndpointPatch) (db.WebhookEndpoint, error)
	Update(ctx context.Context, scope db.EndpointScope, id string, p domain.EndpointPatch) (db.WebhookEndpoint, error)
}

// Subaccounts manages sub-accounts, their moves, locks, limits, pricing and portal.
type Subaccounts interface {
	Create(ctx context.Context, acct domain.Account, in subaccount.NewSubaccount) (subaccount.View, error)
	Get(ctx context.Context, acct domain.Account, idOrRef string) (subaccount.Subaccount, subaccount.Balance, error)
	List(ctx context.Context, acct domain.Account, status string, page, pageSize int) ([]subaccount.View, int, error)
	Update(ctx context.Context, acct domain.Account, u subaccount.Update) (subaccount.View, error)
	Delete(ctx context.Context, acct domain.Account, id string) error
	AddBalance(ctx context.Context, acct domain.Account, key domain.APIKey, m subaccount.Move) (domain.Transaction, error)
	RemoveBalance(ctx context.Context, acct domain.Account, key domain.APIKey, m subaccount.Move) (domain.Transaction, error)
	Transfer(ctx context.Context, acct domain.Account, key domain.APIKey, m subaccount.Move) (domain.Transaction, error)
	Lock(ctx context.Context, acct domain.Account, l subaccount.Lock) (subaccount.View, error)
	Unlock(ctx context.Context, acct domain.Account, id string) (subaccount.View, error)
	SetLimits(ctx context.Context, acct domain.Account, l subaccount.SetLimits) (subaccount.View, error)
	SetPricing(ctx context.Context, acct domain.Account, p subaccount.SetPricing) (subaccount.View, error)
	Pricing(ctx context.Context, acct domain.Account, idOrRef string) (subaccount.Preview, error)
	PortalSetup(ctx context.Context, acct domain.Account, p subaccount.PortalSetup) error
	PortalStatus(ctx context.Context, acct domain.Account, ref string) (subaccount.PortalItem, error)
	ListPortals(ctx context.Context, acct domain.Account, page, pageSize int) ([]subaccount.PortalItem, int, error)
	PortalUpdateEmail(ctx context.Context, acct domain.Account, p subaccount.PortalEmail) (subaccount.PortalItem, error)
	PortalRevoke(ctx context.Context, acct domain.Account, ref string) (subaccount.PortalItem, error)
	PortalReset2FA(ctx context.Context, acct domain.Account, ref string) (subaccount.PortalItem, error)
}

// Simulator is the sandbox processor's simulation of the payer and the PIX
// network (processor/sandbox).
type Simulator interface {
	Pay(ctx context.Context, chargeID string, payer *domain.Party) error
	FailCharge(ctx context.Context, chargeID string) error
	ExpireCharge(ctx context.Context, chargeID string) error
	SettleTransfer(ctx context.Context, id, keyType, key string) (string, error)
	FailTransfer(ctx context.Context, id string) error
	SettleRefund(ctx context.Context, depositID string) error
	FailRefund(ctx context.Context, depositID string) error
}
