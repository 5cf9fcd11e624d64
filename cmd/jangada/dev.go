//go:build devserver

package main

import (
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
	if cfg.AdminToken == "" {
		b := make([]byte, 16)
		rand.Read(b)
		cfg.AdminToken = "adm_" + hex.EncodeToString(b)
	}
	if cfg.PayloadKey == "" {
		key, err := devPayloadKey(cfg.DataDir)
		if err != nil {
			return err
		}
		cfg.PayloadKey = key
	}
	if _, set := os.LookupEnv("JANGADA_WEBHOOK_ALLOW_PRIVATE"); !set {
		cfg.WebhookAllowPrivate = true // local receivers are the point of dev
	}
	var srv *devserver.Server
	var codecL net.Listener
	uiURL := "(external)"
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
		uiURL = srv.UIURL()
	}
	opts := app.Options{API: true, Worker: true}
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
	demo, err := seedDemo(ctx, a)
	if err != nil {
		slog.Warn("demo account not created", "error", err)
	}
	fmt.Printf(`
Jangada is running.
  API          http://%s/v1   (health: /livez, /readyz)
  WebSocket    ws://%s/v1
  Operators    http://%s   (/admin/v1, /metrics, /admin/v1/debug/pprof/)
  Temporal UI  %s   (frontend %s, namespace %s)
  Admin token  %s   (header X-Admin-Token on /admin/v1)
%s
Press Ctrl-C to stop.
`, displayAddr(a.HTTPAddr), displayAddr(a.WSAddr), displayAddr(a.AdminAddr), uiURL, cfg.TemporalAddress, cfg.TemporalNamespace, cfg.AdminToken, demo)

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

func displayAddr(addr string) string {
	if strings.HasPrefix(addr, "[::]:") || strings.HasPrefix(addr, "0.0.0.0:") {
		return "localhost" + addr[strings.LastIndex(addr, ":"):]
	}
	return addr
}

// seedDemo creates a demo account with a full-permission key when the
// database has no account yet, and describes it.
func seedDemo(ctx context.Context, a *app.App) (string, error) {
	n, err := db.CountAccounts(ctx, a.DB)
	if err != nil || n > 0 {
		return "  Accounts exist already: create a key with POST /admin/v1/accounts/{id}/keys.\n", err
	}
	acct, err := service.NewAccount(ctx, a.DB, "Loja Demo", "demo@jangada.dev", "11222333000181")
	if err != nil {
		return "", err
	}
	_, secret, err := service.NewKey(ctx, a.DB, acct.ID, domain.NewKey{Name: "demo", Permissions: []string{"*"}})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("  Demo account %s (demo@jangada.dev)\n  Demo API key %s   (shown once: header X-API-Key)\n", acct.ID, secret), nil
}

// devPayloadKey is the dev payload key, made once and kept beside the
// embedded Temporal's data: the histories it sealed must stay readable
// after a restart.
func devPayloadKey(dataDir string) (string, error) {
	path := filepath.Join(dataDir, "payload.key")
	if b, err := os.ReadFile(path); err == nil {
		return strings.TrimSpace(string(b)), nil
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", err
	}
	key := codec.NewKey()
	return key, os.WriteFile(path, []byte(key+"\n"), 0o600)
}
