// Command jangada runs Jangada: `dev` (everything in one process on embedded
// defaults), `api`, `worker` and `migrate` (the production split),
// `temporal` (the embedded Temporal alone, for a split on one machine),
// `admin` (operator tools) and `health` (the container healthcheck).
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/db"
)

const usage = `usage: jangada <command>

commands:
  dev       API, WebSocket gateway, worker and an embedded Temporal dev server with its UI
  temporal  only the embedded Temporal dev server (build tag devserver), for api and worker processes
  api       the HTTP API and WebSocket gateway
  worker    the Temporal worker
  migrate   create the database if missing and apply migrations
  admin     operator tools (jangada admin help)
  codec     the payload codec endpoint for an operator's Temporal UI and CLI, on a loopback address
            (-addr 127.0.0.1:8234, -origins of the UI); needs JANGADA_PAYLOAD_KEY
  listen    forward the WebSocket gateway's events to a local URL as signed webhook deliveries
            (jangada listen --help)
  health    container healthcheck: exit 0 when this process's JANGADA_ADMIN_ADDR answers /readyz
            (-path /livez: process up only; -addr host:port)
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	cfg, err := config.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	setupLogging(cfg.LogLevel)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch os.Args[1] {
	case "dev":
		err = runDev(ctx, cfg)
	case "temporal":
		err = runTemporal(ctx, cfg)
	case "api":
		if err = errors.Join(cfg.RequireAdminToken(), cfg.RequirePayloadKey()); err == nil {
			err = runProcess(ctx, cfg, app.Options{API: true})
		}
	case "worker":
		if err = cfg.RequirePayloadKey(); err == nil {
			err = runProcess(ctx, cfg, app.Options{Worker: true})
		}
	case "migrate":
		err = migrate(ctx, cfg)
	case "admin":
		err = runAdmin(ctx, cfg, os.Args[2:])
	case "health":
		err = runHealth(ctx, cfg, os.Args[2:])
	case "codec":
		err = runCodec(ctx, cfg, os.Args[2:])
	case "listen":
		if err = runListen(ctx, os.Args[2:], os.Stdout, os.Stderr); isUsage(err) {
			os.Exit(2) // runListen printed why and the usage
		}
	default:
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "jangada:", err)
		os.Exit(1)
	}
}

func setupLogging(level string) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		l = slog.LevelInfo
	}
	slog.SetDefault(slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: l})))
}

func migrate(ctx context.Context, cfg config.Config) error {
	if err := db.EnsureDatabase(ctx, cfg.DatabaseURL); err != nil {
		return err
	}
	d, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer d.Close()
	return db.Migrate(ctx, d)
}

// runProcess runs one production role until SIGINT/SIGTERM.
func runProcess(ctx context.Context, cfg config.Config, opts app.Options) error {
	if cfg.TemporalAddress == "" {
		return fmt.Errorf("JANGADA_TEMPORAL_ADDRESS is required (use `jangada dev` for an embedded server)")
	}
	a, err := app.New(ctx, cfg, opts)
	if err != nil {
		return err
	}
	if err := a.Start(); err != nil {
		return err
	}
	slog.Info("jangada started", "api", opts.API, "worker", opts.Worker, "http", a.HTTPAddr, "ws", a.WSAddr, "admin", a.AdminAddr)
	<-ctx.Done()
	slog.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	a.Shutdown(sctx)
	return nil
}

// shutdownGrace bounds the whole dev shutdown.
const shutdownGrace = 20 * time.Second
