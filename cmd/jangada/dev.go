//go:build devserver

package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/codec"
	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/devserver"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/workflows"
)

// runDev runs everything in one process: embedded Temporal (unless
// JANGADA_TEMPORAL_ADDRESS is set) with its UI, the worker, the API and the
// WebSocket gateway. Ctrl-C drains HTTP, stops the worker, then Temporal.
func runDev(ctx context.Context, cfg config.Config) error {
	var err error
	if cfg.AdminToken == "" {
		if cfg.AdminToken, err = devSecret(cfg.DataDir, adminTokenFile, newAdminToken); err != nil {
			return err
		}
	}
	if cfg.PayloadKey == "" {
		// Histories sealed with the key must stay readable after a restart.
		if cfg.PayloadKey, err = devSecret(cfg.DataDir, payloadKeyFile, codec.NewKey); err != nil {
			return err
		}
	}
	if _, set := os.LookupEnv("JANGADA_DASHBOARD_SIGNUP"); !set {
		cfg.DashboardSignup = true // a newcomer signs up at /dashboard/signup
	}
	if _, set := os.LookupEnv("JANGADA_WEBHOOK_ALLOW_PRIVATE"); !set {
		cfg.WebhookAllowPrivate = true // local receivers are the point of dev
	}
	var srv *devserver.Server
	var codecL net.Listener
	uiURL := "(the external server's own)"
	if cfg.TemporalAddress == "" {
		dir, err := filepath.Abs(filepath.Join(cfg.DataDir, "temporal"))
		if err != nil {
			return err
		}
		// The embedded UI reads sealed payloads (and seals an operator's
		// signal) through the codec endpoint: a loopback listener of its
		// own, never the API's port (app.Options.CodecListener).
		if codecL, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return fmt.Errorf("codec listener: %w", err)
		}
		defer codecL.Close() // once served, Shutdown has closed it already
		srv, err = devserver.Start(ctx, devserver.Options{
			DataDir: dir, Namespace: cfg.TemporalNamespace, Port: cfg.DevTemporalPort, UIPort: cfg.DevTemporalUIPort,
			SearchAttributes: workflows.SearchAttributes(), Logger: slog.Default(),
			CodecEndpoint: "http://" + codecL.Addr().String(),
		})
		if err != nil {
			return fmt.Errorf("embedded temporal: %w", err)
		}
		cfg.TemporalAddress = srv.FrontendAddress()
		if uiURL = srv.UIURL(); uiURL == "" {
			uiURL = "off (JANGADA_DEV_TEMPORAL_UI_PORT=0)"
		}
	}
	tp, flush, err := app.Tracing(ctx)
	if err != nil {
		stopServer(srv)
		return err
	}
	defer flushTraces(flush)
	opts := app.Options{API: true, Worker: true, TracerProvider: tp}
	if srv != nil { // the embedded UI reads sealed payloads through the codec listener
		port := strconv.Itoa(cfg.DevTemporalUIPort)
		opts.CodecListener = codecL
		opts.CodecUIOrigins = []string{"http://localhost:" + port, "http://127.0.0.1:" + port}
	}
	a, err := app.New(ctx, cfg, opts)
	if err != nil {
		stopServer(srv)
		return err
	}
	if err := a.Start(); err != nil {
		stopServer(srv)
		return err
	}
	demo, err := seedDemo(ctx, a, cfg)
	if err != nil {
		slog.Warn("demo account not created", "error", err)
	}
	fmt.Printf(`
Jangada is running.
  API          http://%s/v1   (health: /livez, /readyz)
  WebSocket    ws://%s/v1
  Operators    http://%s   (/admin/v1, /metrics, /admin/v1/debug/pprof/)
  Metrics      http://%s/metrics   (Prometheus: Temporal SDK temporal_*, jangada_* business counters, ledger gauge)
  Traces       %s
  Dashboards   deploy/grafana/dashboards/jangada.json   (docker compose --profile observability: Prometheus http://127.0.0.1:9090, Grafana http://127.0.0.1:3000)
  Temporal UI  %s   (frontend %s, namespace %s)
  API docs     http://%s/docs   (OpenAPI: /v1/openapi.json, /admin/v1/openapi.json)
  Admin token  %s   (header X-Admin-Token on /admin/v1; kept in %s)
%s
Press Ctrl-C to stop.
`, displayAddr(a.HTTPAddr), displayAddr(a.WSAddr), displayAddr(a.AdminAddr), displayAddr(a.AdminAddr), tracesLine(), uiURL,
		cfg.TemporalAddress, cfg.TemporalNamespace, displayAddr(a.HTTPAddr), cfg.AdminToken, filepath.Join(cfg.DataDir, adminTokenFile), demo)

	<-ctx.Done()
	fmt.Println("\nstopping: draining HTTP, stopping the worker, then Temporal…")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	a.Shutdown(sctx)
	stopServer(srv)
	return nil
}

func stopServer(s *devserver.Server) {
	if s != nil {
		if err := s.Stop(); err != nil {
			slog.Warn("temporal stop", "error", err)
		}
	}
}

// demoEmail is the demo account's e-mail: the one account dev makes.
const demoEmail = "demo@jangada.dev"

// seedDemo creates a demo account with a full-permission key when the
// database has no account yet, and on every start describes the demo
// account and how to make a key for it (a key's secret is shown only once).
func seedDemo(ctx context.Context, a *app.App, cfg config.Config) (string, error) {
	n, err := db.CountAccounts(ctx, a.DB)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if n == 0 {
		acct, err := service.NewAccount(ctx, a.DB, "Loja Demo", demoEmail, "11222333000181")
		if err != nil {
			return "", err
		}
		_, secret, err := service.NewKey(ctx, a.DB, acct.ID, domain.NewKey{Name: "demo", Permissions: []string{"*"}})
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "  Demo API key %s   (shown once: header X-API-Key)\n", secret)
	}
	acct, err := db.GetAccountByEmail(ctx, a.DB, demoEmail)
	if err != nil {
		fmt.Fprintf(&b, "  Accounts     jangada admin list-accounts   (then: jangada admin create-key -account <id>)\n")
		return b.String(), nil
	}
	fmt.Fprintf(&b, "  Demo account %s (%s)\n", acct.ID, demoEmail)
	// The CLI finds the operators' listener as this process does
	// (JANGADA_ADMIN_ADDR): a listener moved from its default is named.
	env := ""
	if a.AdminAddr != "" && cfg.AdminAddr != config.DefaultAdminAddr {
		env = "JANGADA_ADMIN_URL=http://" + displayAddr(a.AdminAddr) + " "
	}
	fmt.Fprintf(&b, "  A new key    %s%s admin create-key -account %s\n", env, selfCommand(), acct.ID)
	fmt.Fprintf(&b, "               (or: curl -s -X POST -H 'X-Admin-Token: %s' -d '{\"name\":\"dev\",\"permissions\":[\"*\"]}' http://%s/admin/v1/accounts/%s/keys)\n",
		cfg.AdminToken, displayAddr(cmp.Or(a.AdminAddr, a.HTTPAddr)), acct.ID)
	return b.String(), nil
}

// selfCommand is how the developer runs this binary again: make run's
// ./.bin/jangada, or the path it was started by.
func selfCommand() string {
	if exe := os.Args[0]; strings.Contains(exe, "/go-build") {
		return "go run -tags devserver ./cmd/jangada"
	}
	return os.Args[0]
}

// newAdminToken makes a dev admin token.
func newAdminToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return "adm_" + hex.EncodeToString(b)
}

// tracesLine says where the traces go (OTEL_TRACES_EXPORTER).
func tracesLine() string {
	switch e := os.Getenv("OTEL_TRACES_EXPORTER"); e {
	case "", "none":
		return "off   (OTEL_TRACES_EXPORTER=console for spans on stdout, =otlp with OTEL_EXPORTER_OTLP_ENDPOINT)"
	case "otlp":
		ep := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
		if ep == "" {
			ep = os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
		}
		if ep == "" {
			ep = "http://localhost:4318"
		}
		return "OTLP to " + ep
	default:
		return e + " (stdout)"
	}
}
