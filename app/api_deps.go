package app

import (
	"crypto/rand"
	"encoding/base64"
	"time"

	"github.com/alexedwards/scs/postgresstore"
	"github.com/alexedwards/scs/v2"
	"github.com/alexedwards/scs/v2/memstore"
	"github.com/jangada/jangada/api"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/twofactor"
)

// apiDeps hands the HTTP layer its use cases, one per product
// (TestEveryUseCaseIsWired fails for a use case left out).
func (a *App) apiDeps(sbx processor.Simulator, internal *service.Internal) api.Deps {
	cfg, d := a.Cfg, a.DB
	a.keyAuth = &service.Auth{DB: d, TTL: cfg.KeyCacheTTL}
	sealer := a.sealer()
	webhooks := &service.Webhooks{DB: d, AllowPrivate: cfg.WebhookAllowPrivate, Temporal: a.Temporal, Queue: cfg.WebhookQueue()}
	return api.Deps{
		Config: cfg, DB: d, Temporal: a.Temporal, Charges: a.Charges,
		// The tail (above) hears of every change of a key or an
		// account, which drops the resolved keys at once.
		Auth: a.keyAuth,
		// The adapter's simulator (processor.Simulator) behind the
		// sandbox routes' use case; an adapter without one leaves
		// Sandbox nil and the routes do not exist.
		Sandbox:   &service.Sandbox{DB: d, Simulator: sbx},
		Transfers: a.Transfers, Refunds: a.Refunds, Internal: internal, Schedules: a.Schedules,
		Webhooks:     webhooks,
		Transactions: &service.Transactions{DB: d}, Accounts: &service.Accounts{DB: d},
		Idempotency: &service.Idempotency{DB: d},
		Subaccounts: a.Subaccounts,
		// The sub-account portal: its sessions in PostgreSQL (expired
		// ones purged hourly, purgeExpired), its login throttles shared
		// like every budget (app/budgets.go).
		Portal: &service.Portal{DB: d, Charges: a.Charges, Throttle: a.budgets.logins,
			FailuresPerEmail: cfg.LoginFailuresPerEmail, FailuresPerAddress: cfg.LoginFailuresPerAddress,
			Sealer: sealer},
		Sessions: a.sessionStore(),
		// The merchant dashboard: the portal's foundation, its own users.
		Dashboard: &service.Dashboard{DB: d, Throttle: a.budgets.logins,
			FailuresPerEmail: cfg.LoginFailuresPerEmail, FailuresPerAddress: cfg.LoginFailuresPerAddress,
			Signups: a.budgets.signups, SignupsPerAddress: cfg.SignupsPerAddress, Sealer: sealer,
			PublicURL: cfg.PublicURL, Webhooks: webhooks, KeyRevoked: a.Hub.CloseKey,
			RateLimitPerMinute: cfg.RateLimitPerMinute},
		// Every request budget, shared by the replicas with Redis.
		Limits: a.budgets.requests, Slots: a.budgets.slots,
		// Payment links and checkout.
		PaymentLinks: &service.PaymentLinks{DB: d},
		// PIX automatic.
		PixAutomatic: a.PixAutomatic,
		// Store: customers, products, coupons.
		Customers: a.Customers, Products: a.Products, Coupons: a.Coupons,
		// Checkouts of payment links.
		Checkouts:    &service.Checkouts{DB: d, Charges: a.Charges, Crypto: a.Crypto, PublicURL: cfg.PublicURL},
		SessionWatch: a.Watchers,
		// MED disputes.
		MEDs:       &service.MEDs{DB: d, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue, PublicURL: cfg.PublicURL},
		KeyRevoked: a.Hub.CloseKey, WorkerReady: a.workerReady,
		// Subscriptions and the credit bureau.
		Subscriptions: a.Subscriptions, Bureau: a.Bureau,
		// Billings.
		Billings: a.Billings,
		// Mobile recharge and crypto.
		Recharges: a.Recharges, Crypto: a.Crypto,
	}
}

// LoginWindow is the window the login throttles count failures over.
const LoginWindow = 15 * time.Minute

// SignupWindow is the window the dashboard's sign-ups are counted over.
const SignupWindow = time.Hour

// sessionStore keeps the human pages' sessions in PostgreSQL; only the
// wiring test builds an App without a database, and gets a memory store.
func (a *App) sessionStore() scs.Store {
	if a.DB == nil {
		return memstore.NewWithCleanupInterval(0)
	}
	return postgresstore.NewWithCleanupInterval(a.DB.DB, 0)
}

// sealer seals the portal's TOTP secrets under a key derived from the
// payload key; without one (tests, a bare dev run) from a random key of
// the process, so secrets enrolled then do not outlive it.
func (a *App) sealer() *twofactor.Sealer {
	key, err := base64.StdEncoding.DecodeString(a.Cfg.PayloadKey)
	if err != nil || len(key) < 16 {
		key = make([]byte, 32)
		_, _ = rand.Read(key)
	}
	s, _ := twofactor.NewSealer(key)
	return s
}
