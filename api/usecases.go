package api

import (
	"context"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/bureau"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/auth.go -package=apimock . Auth
//go:generate go tool mockgen -destination=apimock/charges.go -package=apimock . Charges
//go:generate go tool mockgen -destination=apimock/transfers.go -package=apimock . Transfers
//go:generate go tool mockgen -destination=apimock/refunds.go -package=apimock . Refunds
//go:generate go tool mockgen -destination=apimock/internal.go -package=apimock . Internal
//go:generate go tool mockgen -destination=apimock/schedules.go -package=apimock . Schedules
//go:generate go tool mockgen -destination=apimock/webhooks.go -package=apimock . Webhooks
//go:generate go tool mockgen -destination=apimock/sandbox.go -package=apimock . Sandbox
//go:generate go tool mockgen -destination=apimock/transactions.go -package=apimock . Transactions
//go:generate go tool mockgen -destination=apimock/accounts.go -package=apimock . Accounts
//go:generate go tool mockgen -destination=apimock/idempotency.go -package=apimock . Idempotency
//go:generate go tool mockgen -destination=apimock/subaccounts.go -package=apimock . Subaccounts

// Subscriptions.
//go:generate go tool mockgen -destination=apimock/subscriptions.go -package=apimock . Subscriptions

// Credit bureau.
//go:generate go tool mockgen -destination=apimock/bureau.go -package=apimock . Bureau
//go:generate go tool mockgen -destination=apimock/pixauto.go -package=apimock . PixAutomatic

// Billings.
//go:generate go tool mockgen -destination=apimock/billings.go -package=apimock . Billings

// Payment links and checkout (issue 24).
//go:generate go tool mockgen -destination=apimock/paymentlinks.go -package=apimock . PaymentLinks
//go:generate go tool mockgen -destination=apimock/checkouts.go -package=apimock . Checkouts
//go:generate go tool mockgen -destination=apimock/session_watch.go -package=apimock . SessionWatch

// Store: customers, products, coupons.
//go:generate go tool mockgen -destination=apimock/customers.go -package=apimock . Customers
//go:generate go tool mockgen -destination=apimock/products.go -package=apimock . Products
//go:generate go tool mockgen -destination=apimock/coupons.go -package=apimock . Coupons
//go:generate go tool mockgen -destination=apimock/meds.go -package=apimock . MEDs

// Mobile recharge and crypto.
//go:generate go tool mockgen -destination=apimock/recharges.go -package=apimock . Recharges
//go:generate go tool mockgen -destination=apimock/crypto.go -package=apimock . Crypto

// The use cases the handlers call, one interface per product, implemented
// by package service (and by generated mocks in handler tests). Handlers
// bind, call one of these, and map the error: nothing else. Reads too go
// through a use case, so package api does not import package db
// (TestAPIDoesNotImportDB) and every route can be tested with the mocks
// (TestEveryRouteHasAHandlerTest).

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
	Create(ctx context.Context, accountID string, keyID *string, p domain.EndpointPatch) (service.WebhookEndpoint, error)
	Update(ctx context.Context, scope service.EndpointScope, id string, p domain.EndpointPatch) (service.WebhookEndpoint, error)
	List(ctx context.Context, scope service.EndpointScope, page, pageSize int) ([]service.WebhookEndpoint, int, error)
	Get(ctx context.Context, scope service.EndpointScope, id string) (service.WebhookEndpoint, error)
	Delete(ctx context.Context, scope service.EndpointScope, id string) error
	// Deliveries, Delivery and Redeliver are the operators' view of an
	// endpoint's delivery history (admin API).
	Deliveries(ctx context.Context, endpointID, status string, page, pageSize int) ([]service.Delivery, int, error)
	Delivery(ctx context.Context, id string) (service.Delivery, error)
	Redeliver(ctx context.Context, id string) (service.Redelivery, error)
	// Test sends a webhook.test event to one endpoint (admin API).
	Test(ctx context.Context, endpointID, requestID string) (service.SentTest, error)
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

// PixAutomatic manages PIX automatic authorizations and their payment
// instructions.
type PixAutomatic interface {
	CreateAuthorization(ctx context.Context, acct domain.Account, key domain.APIKey, in pixauto.NewAuthorization) (pixauto.View, error)
	GetAuthorization(ctx context.Context, acct domain.Account, id string) (pixauto.View, error)
	ListAuthorizations(ctx context.Context, acct domain.Account, status string, page, pageSize int) ([]pixauto.View, int, error)
	CancelAuthorization(ctx context.Context, acct domain.Account, id string) (pixauto.View, error)
	CreateInstruction(ctx context.Context, acct domain.Account, in pixauto.NewInstruction) (pixauto.Instruction, error)
	GetInstruction(ctx context.Context, acct domain.Account, id string) (pixauto.Instruction, error)
	ListInstructions(ctx context.Context, acct domain.Account, authorizationID, status string, page, pageSize int) ([]pixauto.Instruction, int, error)
	CancelInstruction(ctx context.Context, acct domain.Account, id string) (pixauto.Instruction, error)
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
	// MED disputes (issue 25).
	OpenMED(ctx context.Context, acct domain.Account, o med.MedOpening) (service.Simulated, error)
	ResolveMED(ctx context.Context, acct domain.Account, id, status string) (service.Simulated, error)
	// PIX automatic: the payer answers the consent.
	ApproveAuthorization(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	RejectAuthorization(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	// Billings.
	PayBilling(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	OverdueBilling(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	// Mobile recharge and crypto.
	CompleteRecharge(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	PayCrypto(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	SettleCrypto(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
	FailCrypto(ctx context.Context, acct domain.Account, id string) (service.Simulated, error)
}

// Billings creates, reads and refunds billings, tokenizes cards, and
// serves a billing's public page (boleto slip, debit card invoice).
type Billings interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in billing.NewBilling) (service.CreatedBilling, error)
	TokenizeCard(ctx context.Context, acct domain.Account, in billing.NewCardToken) (service.CardTokenView, error)
	Get(ctx context.Context, acct domain.Account, idOrExternal string) (service.CreatedBilling, error)
	List(ctx context.Context, acct domain.Account, f service.BillingFilter) ([]billing.Billing, int, error)
	Refund(ctx context.Context, acct domain.Account, in billing.NewBillingRefund) (billing.Billing, error)
	Page(ctx context.Context, token string) (service.CreatedBilling, error)
	// PayInvoice pays a debit card billing on its hosted invoice page.
	PayInvoice(ctx context.Context, token string, in billing.NewInvoicePayment) (service.CreatedBilling, error)
}

// PaymentLinks manages payment links (issue 24).
type PaymentLinks interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, p checkout.LinkPatch) (service.PaymentLink, error)
	Get(ctx context.Context, acct domain.Account, id string) (service.PaymentLink, error)
	List(ctx context.Context, acct domain.Account, status, search string, page, pageSize int) ([]service.PaymentLink, int, error)
	Update(ctx context.Context, acct domain.Account, id string, p checkout.LinkPatch) (service.PaymentLink, error)
	SetStatus(ctx context.Context, acct domain.Account, id, status string) (service.PaymentLink, error)
	Delete(ctx context.Context, acct domain.Account, id string) error
}

// Store: customers, products, coupons (spec "Store").

// Customers manages the store's customers.
type Customers interface {
	Create(ctx context.Context, acct domain.Account, p store.CustomerPatch) (store.Customer, error)
	Get(ctx context.Context, acct domain.Account, id string) (store.Customer, error)
	List(ctx context.Context, acct domain.Account, f store.CustomerFilter) ([]store.Customer, int, error)
	Update(ctx context.Context, acct domain.Account, id string, p store.CustomerPatch) (store.Customer, error)
	Delete(ctx context.Context, acct domain.Account, id string) error
}

// SessionWatch wakes the hosted session page's event stream after each
// event of the resources it follows (dispatch.Watchers, fed by the tail).
type SessionWatch interface {
	Watch(ids ...string) (wake <-chan struct{}, stop func())
}

// Checkouts runs payment links' checkouts and reads their sessions, for
// the merchant API and the hosted pages (issue 24).
type Checkouts interface {
	Checkout(ctx context.Context, acct domain.Account, key domain.APIKey, in checkout.NewCheckout) (service.CheckoutResult, error)
	Session(ctx context.Context, acct domain.Account, id string) (checkout.CheckoutSession, error)
	PageCheckout(ctx context.Context, nonce string, in checkout.NewCheckout) (service.CheckoutResult, error)
	PublicSession(ctx context.Context, id string) (service.CheckoutResult, error)
	PublicLink(ctx context.Context, id string) (service.PayPage, error)
}

// Products manages the store's products and their deliveries.
type Products interface {
	Create(ctx context.Context, acct domain.Account, p store.ProductPatch) (store.Product, error)
	Get(ctx context.Context, acct domain.Account, id string) (store.Product, error)
	List(ctx context.Context, acct domain.Account, f store.ProductFilter) ([]store.Product, int, error)
	Update(ctx context.Context, acct domain.Account, id string, p store.ProductPatch) (store.Product, error)
	Delete(ctx context.Context, acct domain.Account, id string) error
}

// Coupons manages the store's coupons and answers their validation.
type Coupons interface {
	Create(ctx context.Context, acct domain.Account, p store.CouponPatch) (store.Coupon, error)
	Get(ctx context.Context, acct domain.Account, id string) (store.Coupon, error)
	List(ctx context.Context, acct domain.Account, f store.CouponFilter) ([]store.Coupon, int, error)
	Update(ctx context.Context, acct domain.Account, id string, p store.CouponPatch) (store.Coupon, error)
	Delete(ctx context.Context, acct domain.Account, id string) error
	Validate(ctx context.Context, acct domain.Account, c store.CouponCheck) (store.CouponQuote, error)
}

// Recharges tops up mobile phones: the operator's offer for a number, the
// create and the cancellation (reads go through Transactions).
type Recharges interface {
	Provider(ctx context.Context, acct domain.Account, phone mobile.MobileNumber) (service.RechargeProvider, error)
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in mobile.NewRecharge) (domain.Transaction, error)
	Cancel(ctx context.Context, acct domain.Account, id string) (domain.Transaction, error)
}

// Crypto receives and sends crypto: deposits, quotes, withdrawals and
// quote-and-send (reads go through Transactions).
type Crypto interface {
	CreateDeposit(ctx context.Context, acct domain.Account, key domain.APIKey, in crypto.NewCryptoDeposit) (domain.Transaction, error)
	Quote(ctx context.Context, acct domain.Account, in crypto.NewCryptoQuote) (crypto.CryptoQuote, error)
	CreateWithdrawal(ctx context.Context, acct domain.Account, key domain.APIKey, in crypto.NewCryptoWithdrawal) (domain.Transaction, error)
	SendAuto(ctx context.Context, acct domain.Account, key domain.APIKey, in crypto.NewCryptoWithdrawal) (domain.Transaction, error)
}

// MEDs reads MED disputes and takes the merchant's evidence (issue 25).
type MEDs interface {
	List(ctx context.Context, acct domain.Account, f service.ListFilter) ([]domain.Transaction, int, error)
	Get(ctx context.Context, acct domain.Account, idOrProtocol string) (domain.Transaction, error)
	Evidence(ctx context.Context, acct domain.Account, idOrProtocol string, in med.NewEvidence) (domain.Transaction, error)
}

// Subscriptions: recurring billings, one workflow per subscription.
type Subscriptions interface {
	Create(ctx context.Context, acct domain.Account, key domain.APIKey, in billing.NewSubscription) (billing.SubscriptionRecord, error)
	Get(ctx context.Context, acct domain.Account, idOrExternal string) (billing.SubscriptionRecord, error)
	List(ctx context.Context, acct domain.Account, status string, page, pageSize int) ([]billing.Subscription, int, error)
	Cancel(ctx context.Context, acct domain.Account, idOrExternal string) (billing.SubscriptionRecord, error)
}

// Bureau is the credit bureau: dunnings of overdue billings and credit
// reports (routes behind the creditBureau feature).
type Bureau interface {
	Simulate(ctx context.Context, acct domain.Account, payment string) (bureau.DunningSimulation, error)
	CreateDunning(ctx context.Context, acct domain.Account, in bureau.NewDunning) (bureau.DunningView, error)
	GetDunning(ctx context.Context, acct domain.Account, id string) (bureau.DunningView, error)
	ListDunnings(ctx context.Context, acct domain.Account, f bureau.DunningFilter) ([]bureau.Dunning, int, error)
	CreateReport(ctx context.Context, acct domain.Account, in bureau.NewReport) (bureau.Report, error)
	GetReport(ctx context.Context, acct domain.Account, id string) (bureau.Report, error)
	ListReports(ctx context.Context, acct domain.Account, page, pageSize int) ([]bureau.Report, int, error)
}
