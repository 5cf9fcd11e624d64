// Package api is Jangada's HTTP adapter: the merchant API under /v1, the
// admin API under /admin/v1, the sandbox routes, health and metrics. The
// admin API, metrics and profiles also have a listener of their own
// (AdminHandler). Handlers bind, call one use case of package service (see
// usecases.go) and map its error; package api reads no table itself.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/alexedwards/scs/v2"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.temporal.io/sdk/client"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/internal/clientip"
	"github.com/jangada/jangada/ratelimit"
)

// Deps are what the HTTP layer needs: the use cases its handlers call (see
// usecases.go), and the database and Temporal only for /readyz.
type Deps struct {
	Config config.Config
	// DB is pinged by /readyz, nothing else (a *sqlx.DB satisfies it).
	DB           Pinger
	Temporal     client.Client
	Auth         Auth
	Charges      Charges
	Transfers    Transfers
	Refunds      Refunds
	Internal     Internal
	Schedules    Schedules
	Webhooks     Webhooks
	Transactions Transactions
	Accounts     Accounts
	Idempotency  Idempotency
	// Subaccounts is the sub-account product (routes under /subaccount).
	Subaccounts Subaccounts
	// Portal is the sub-account portal's use cases (pages under /portal).
	Portal Portal
	// Dashboard is the merchant dashboard's use cases (pages under
	// /dashboard, and the admin API's invitations).
	Dashboard Dashboard
	// Limits counts every request budget (per key, per address, the admin
	// API's, the pages'): shared by the replicas through Redis with
	// JANGADA_REDIS_URL; nil is this process's own limiter.
	Limits ratelimit.Counter
	// Slots caps what one client holds open (the pages' event streams per
	// address), shared like Limits.
	Slots ratelimit.Slots
	// Sessions keeps the human pages' sessions (postgresstore in
	// production); nil leaves the portal out.
	Sessions scs.Store
	// Subscriptions is the subscription product (routes under /subscriptions).
	Subscriptions Subscriptions
	// Bureau is the credit bureau (routes under /bureau).
	Bureau Bureau
	// PaymentLinks are the store's payment links.
	PaymentLinks PaymentLinks
	// PixAutomatic is PIX automatic (routes under /pix-automatic).
	PixAutomatic PixAutomatic
	// Store: customers, products, coupons (routes under /customers,
	// /products, /coupons).
	Customers Customers
	// Checkouts runs checkouts and serves the hosted pages.
	Checkouts Checkouts
	Products  Products
	// SessionWatch feeds the hosted session page's live status.
	SessionWatch SessionWatch
	// Billings are the billing product's use cases.
	Billings Billings
	// Coupons are the store's coupons (with Customers and Products).
	Coupons Coupons
	// Recharges and Crypto are the mobile recharge and crypto products.
	Recharges Recharges
	Crypto    Crypto
	// MEDs is the MED dispute product (routes under /meds).
	MEDs MEDs
	// Sandbox is the use case of the sandbox routes; nil when the processor
	// adapter has no simulator, and then the sandbox routes do not exist.
	Sandbox Sandbox
	// KeyRevoked is told of each revoked key (the WebSocket gateway closes its connections).
	KeyRevoked func(keyID string)
	// WorkerReady reports whether a worker polls the task queue (for /readyz).
	WorkerReady func(ctx context.Context) error
	Logger      *slog.Logger
}

// Pinger is what /readyz asks of the database.
type Pinger interface {
	PingContext(ctx context.Context) error
}

// Server is the HTTP API.
type Server struct {
	Deps
	cfg     config.Config
	limiter ratelimit.Counter
	// portalSessions and portalArea are the portal's sessions and login
	// (mountPortal).
	portalSessions *webSessions
	portalArea     area
	// dashSessions and dashArea are the dashboard's (mountDashboard).
	dashSessions *webSessions
	dashArea     area
	// slots caps the pages' open event streams per client address (Deps.Slots).
	slots  ratelimit.Slots
	engine *gin.Engine
	// admin is the operators' listener: /admin/v1, /metrics and pprof.
	admin *gin.Engine
	// proxies finds each request's client address (JANGADA_TRUSTED_PROXIES).
	proxies clientip.Trusted
	// fingerprint keys the Idempotency-Key request fingerprints (fingerprintKey).
	fingerprint []byte
}

// clientAddrHeader carries, inside the process, the client address that
// clientip found; gin's c.ClientIP() reads it (TrustedPlatform), so every
// handler sees the same address as the WebSocket gateway. withClientIP sets
// it on every request, overwriting whatever a client sent under that name.
const clientAddrHeader = "X-Jangada-Client-Address"

// withClientIP resolves the client's address once, first in the chain.
func (s *Server) withClientIP(c *gin.Context) {
	c.Request.Header.Set(clientAddrHeader, s.proxies.ClientIP(c.Request))
	c.Next()
}

// newEngine is a gin engine with the middleware every listener shares.
func (s *Server) newEngine() *gin.Engine {
	e := gin.New()
	// gin's own proxy logic is off: clientip decides (one rule for the
	// HTTP API, the admin API and the WebSocket gateway).
	e.SetTrustedProxies(nil)
	e.TrustedPlatform = clientAddrHeader
	e.HandleMethodNotAllowed = false
	e.Use(s.withClientIP, withRequestID, recoverer, observe, cleanInput)
	e.NoRoute(notFound)
	return e
}

// New wires the routes.
func New(d Deps) *Server {
	gin.SetMode(gin.ReleaseMode)
	s := &Server{Deps: d, cfg: d.Config, limiter: d.Limits, fingerprint: fingerprintKey(d.Config.PayloadKey)}
	if s.limiter == nil {
		s.limiter = ratelimit.New()
	}
	if s.slots = d.Slots; s.slots == nil {
		s.slots = ratelimit.NewLocalSlots()
	}
	proxies, err := clientip.Parse(d.Config.TrustedProxies)
	if err != nil {
		// config.Load refuses a bad list; a Config built by hand that
		// carries one trusts nobody rather than everybody.
		slog.Error("trusted proxies ignored", "error", err)
	}
	s.proxies = proxies
	e := s.newEngine()

	e.GET("/livez", s.livez)
	e.GET("/readyz", s.readyz)
	e.GET("/qr/:file", s.qrImage)
	// The human pages, without an API key, all in one group whose
	// middleware sends their headers (pageHeaders), whatever answers:
	// a page, an error page, a redirect.
	mountPageAssets(e)
	pages := e.Group("", pageHeaders, s.pageGuard(http.NewCrossOriginProtection()))
	// Payment links' hosted pages.
	if s.Checkouts != nil {
		s.mountPages(pages)
	}
	// Billings: a boleto's printable slip and a debit card billing's
	// hosted invoice, public under unguessable page tokens.
	pages.GET("/billings/slip/:token", s.billingSlip)
	pages.GET("/billings/invoice/:token", s.billingInvoice)
	pages.POST("/billings/invoice/:token/pay", s.payInvoice)
	// The sub-account portal (api/portal.go) and the merchant dashboard
	// (api/dashboard.go).
	s.mountPortal(pages)
	s.mountDashboard(pages)
	// No payload codec endpoint here: it seals what the worker trusts, and
	// has a loopback listener of its own in dev (app.Options.CodecListener).

	v1 := e.Group("/v1", s.authenticate)
	for _, r := range Routes() {
		if r.Sandbox && s.Sandbox == nil {
			continue
		}
		h := r.Handler
		chain := []gin.HandlerFunc{require(r.Permission), requireFeature(r.Feature)}
		if r.Method == http.MethodPost && (strings.HasSuffix(r.Path, "/create") || r.Idempotent) {
			chain = append(chain, s.idempotent)
		}
		v1.Handle(r.Method, r.Path, append(chain, func(c *gin.Context) { h(s, c) })...)
	}
	// The operators' listener: the admin API, metrics and profiles, on an
	// address the deployment does not publish (JANGADA_ADMIN_ADDR).
	s.admin = s.newEngine()
	s.admin.GET("/livez", s.livez)
	s.admin.GET("/readyz", s.readyz)
	s.admin.GET("/metrics", gin.WrapH(promhttp.Handler()))
	// The admin API is only there: a merchant port that answers
	// /admin/v1 hands a guessable token's budget to the whole internet.
	s.adminRoutes(s.admin)
	// The OpenAPI documents and the /docs reference page (api/docs.go).
	s.mountDocs(e, false)
	s.mountDocs(s.admin, true)
	s.engine = e
	return s
}

// adminRoutes mounts /admin/v1, pprof included, on e.
func (s *Server) adminRoutes(e *gin.Engine) {
	admin := e.Group("/admin/v1", s.adminOnly)
	for _, r := range adminRoutes() {
		h := r.Handler
		admin.Handle(r.Method, r.Path, func(c *gin.Context) { h(s, c) })
	}
}

// Handler is the http.Handler of the merchant listener (JANGADA_HTTP_ADDR).
func (s *Server) Handler() http.Handler { return s.engine }

// AdminHandler is the http.Handler of the operators' listener
// (JANGADA_ADMIN_ADDR): /admin/v1 with pprof, /metrics, /livez, /readyz.
func (s *Server) AdminHandler() http.Handler { return s.admin }
