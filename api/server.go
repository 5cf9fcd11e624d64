// Package api is Jangada's HTTP adapter: the merchant API under /v1, the
// admin API under /admin/v1, the sandbox routes, health and metrics. Handlers
// validate and map; the service package does the work.
package api

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/jmoiron/sqlx"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.temporal.io/sdk/client"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/ratelimit"
)

// Deps are what the HTTP layer needs: the use cases its handlers call (see
// usecases.go), the database for reads, and Temporal for health and
// redeliveries.
type Deps struct {
	Config    config.Config
	DB        *sqlx.DB
	Temporal  client.Client
	Auth      Auth
	Charges   Charges
	Transfers Transfers
	Refunds   Refunds
	Internal  Internal
	Schedules Schedules
	Webhooks  Webhooks
	// Subaccounts is the sub-account product (routes under /subaccount).
	Subaccounts Subaccounts
	// Sandbox is the simulator; nil when a real processor is configured,
	// and then the sandbox routes do not exist.
	Sandbox Simulator
	// KeyRevoked is told of each revoked key (the WebSocket gateway closes its connections).
	KeyRevoked func(keyID string)
	// Codec, in dev only, is the payload codec endpoint the Temporal Web UI
	// calls (served at /codec to loopback clients only).
	Codec http.Handler
	// WorkerReady reports whether a worker polls the task queue (for /readyz).
	WorkerReady func(ctx context.Context) error
	Logger      *slog.Logger
}

// Server is the HTTP API.
type Server struct {
	Deps
	cfg     config.Config
	db      *sqlx.DB
	limiter *ratelimit.Limiter
	engine  *gin.Engine
}

// New wires the routes.
func New(d Deps) *Server {
	gin.SetMode(gin.ReleaseMode)
	s := &Server{Deps: d, cfg: d.Config, db: d.DB, limiter: ratelimit.New()}
	e := gin.New()
	e.SetTrustedProxies(nil) // ClientIP is the peer address: allowlists must not trust forged headers
	e.HandleMethodNotAllowed = false
	e.Use(withRequestID, recoverer, observe, cleanInput)
	e.NoRoute(notFound)

	e.GET("/livez", s.livez)
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", gin.WrapH(promhttp.Handler()))
	e.GET("/qr/:file", s.qrImage)
	if d.Codec != nil {
		codec := http.StripPrefix("/codec", d.Codec)
		e.Any("/codec/*path", func(c *gin.Context) {
			// It opens sealed payloads: never beyond this machine.
			if !net.ParseIP(c.ClientIP()).IsLoopback() {
				notFound(c)
				return
			}
			codec.ServeHTTP(c.Writer, c.Request)
		})
	}

	v1 := e.Group("/v1", s.authenticate)
	for _, r := range Routes() {
		if r.Sandbox && s.Sandbox == nil {
			continue
		}
		h := r.Handler
		chain := []gin.HandlerFunc{require(r.Permission), requireFeature(r.Feature)}
		if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/create") {
			chain = append(chain, s.idempotent)
		}
		v1.Handle(r.Method, r.Path, append(chain, func(c *gin.Context) { h(s, c) })...)
	}
	admin := e.Group("/admin/v1", s.adminOnly)
	for _, r := range adminRoutes() {
		h := r.Handler
		admin.Handle(r.Method, r.Path, func(c *gin.Context) { h(s, c) })
	}
	s.engine = e
	return s
}

// Handler is the http.Handler to serve.
func (s *Server) Handler() http.Handler { return s.engine }
