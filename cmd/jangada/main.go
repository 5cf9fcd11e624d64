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

const usage = `usage: jangada <command> [flags]     (jangada <command> -h: that command's help)

commands:
  dev       API, WebSocket gateway, worker and an embedded Temporal dev server with its UI
  temporal  only the embedded Temporal dev server (build tag devserver), for api and worker processes
  api       the HTTP API and WebSocket gateway
  worker    the Temporal worker
  migrate   create the database if missing and apply migrations
  admin     operator tools (jangada admin help)
  codec     the payload codec endpoint for an operator's Temporal UI and CLI, on a loopback address
  health    container healthcheck: exit 0 when this process's JANGADA_ADMIN_ADDR answers /readyz
  listen    forward your account's events from the WebSocket gateway to a local URL, signed as webhooks

Configuration is read from JANGADA_* environment variables (README.md, "Configuration").
`

// helps is each command's own usage, printed by "jangada <command> -h"
// (or --help, or help) without running it.
var helps = map[string]string{
	"dev": `usage: jangada dev

Runs everything in one process on embedded defaults: the HTTP API (JANGADA_HTTP_ADDR, :8080), the
WebSocket gateway (:8081), the operators' listener (127.0.0.1:8082), the worker and, unless
JANGADA_TEMPORAL_ADDRESS is set, an embedded Temporal dev server with its Web UI (:8233), its state in
JANGADA_DATA_DIR (./.data) beside the dev payload key and admin token. Migrates the database first.
Ctrl-C stops it cleanly. Built with -tags devserver (make run).
`,
	"temporal": `usage: jangada temporal
       jangada temporal -store postgres [-pg 127.0.0.1:5432] [-pg-user postgres] [-db temporal]
                        [-shards 8] [-base-port 7233] [-pg-conns 20] -migrate | -node N | -register ADDRS | -nodes N

Runs only the embedded Temporal dev server (build tag devserver): frontend on
127.0.0.1:JANGADA_DEV_TEMPORAL_PORT (7233), Web UI on JANGADA_DEV_TEMPORAL_UI_PORT (8233; 0: none), state in
JANGADA_DATA_DIR/temporal. For api and worker processes on one machine.

With -store postgres, a Temporal cluster on PostgreSQL (databases <db> and <db>_visibility; password in
JANGADA_TEMPORAL_PG_PASSWORD; -pg-conns caps each node's pool per database, so that the nodes and Jangada's
processes fit under PostgreSQL's max_connections), every step what a deployment's set-up jobs and server
containers do:
  -migrate         create both databases if missing and migrate their schemas (temporal-sql-tool's
                   create-database, setup-schema -v 0.0, update-schema, from the server's embedded files)
  -node N          run node N (every service; ports base+20(N-1)+0..4, membership +10..13, all < 32768)
  -register ADDRS  register JANGADA_TEMPORAL_NAMESPACE (retention 720h) and Jangada's search attributes
                   through the frontends ADDRS (comma-separated) and wait until each serves them
  -nodes N         all of it: -migrate, N nodes as child processes, -register; until Ctrl-C
`,
	"api": `usage: jangada api

Serves the HTTP API and the WebSocket gateway. Needs JANGADA_TEMPORAL_ADDRESS, JANGADA_ADMIN_TOKEN (16+
characters) and JANGADA_PAYLOAD_KEY. Run jangada migrate first.
`,
	"worker": `usage: jangada worker

Runs the Temporal worker. Needs JANGADA_TEMPORAL_ADDRESS and JANGADA_PAYLOAD_KEY. Run jangada migrate first.
`,
	"migrate": `usage: jangada migrate

Creates the database of JANGADA_DATABASE_URL if missing and applies the embedded migrations, then says
what it applied.
`,
	"admin":  adminUsage,
	"listen": listenUsage,
	"codec": `usage: jangada codec [-addr 127.0.0.1:8234] [-origins http://localhost:8233,...]

The payload codec endpoint for an operator's Temporal UI (TEMPORAL_CODEC_ENDPOINT) and CLI
(--codec-endpoint), on a loopback address. Needs JANGADA_PAYLOAD_KEY.
`,
	"health": `usage: jangada health [-addr host:port] [-path /readyz|/livez] [-timeout 5s]

Exits 0 when the process's operators' listener (JANGADA_ADMIN_ADDR) answers path with 200.
`,
}

// errUsage is a command line that does not parse: its command's usage has
// been printed, and the exit status is 2.
var errUsage = errors.New("usage")

// wantsHelp reports whether args ask for help: -h, -help, --help or help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help", "help":
			return true
		}
	}
	return false
}

// noArgs refuses arguments to a command that takes none.
func noArgs(cmd string, args []string) error {
	if len(args) > 0 {
		fmt.Fprintf(os.Stderr, "jangada %s takes no arguments (got %q)\n\n%s", cmd, args, helps[cmd])
		return errUsage
	}
	return nil
}

func main() {
	if len(os.Args) < 2 || wantsHelp(os.Args[1:2]) {
		if len(os.Args) < 2 {
			fmt.Fprint(os.Stderr, usage)
			os.Exit(2)
		}
		fmt.Print(usage)
		return
	}
	cmd, args := os.Args[1], os.Args[2:]
	// "jangada <command> -h" prints that command's help and does nothing
	// else: no migration, no server started. admin has help per subcommand.
	if h, known := helps[cmd]; known && cmd != "admin" && wantsHelp(args) {
		fmt.Print(h)
		return
	}
	cfg, err := config.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	setupLogging(cfg.LogLevel)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch cmd {
	case "dev":
		if err = noArgs(cmd, args); err == nil {
			err = runDev(ctx, cfg)
		}
	case "temporal":
		err = runTemporal(ctx, cfg, args)
	case "api":
		if err = noArgs(cmd, args); err == nil {
			if err = errors.Join(cfg.RequireAdminToken(), cfg.RequirePayloadKey()); err == nil {
				err = runProcess(ctx, cfg, app.Options{API: true})
			}
		}
	case "worker":
		if err = noArgs(cmd, args); err == nil {
			if err = cfg.RequirePayloadKey(); err == nil {
				err = runProcess(ctx, cfg, app.Options{Worker: true})
			}
		}
	case "migrate":
		if err = noArgs(cmd, args); err == nil {
			err = migrate(ctx, cfg)
		}
	case "admin":
		err = runAdmin(ctx, cfg, args)
	case "health":
		err = runHealth(ctx, cfg, args)
	case "codec":
		err = runCodec(ctx, cfg, args)
	case "listen":
		err = runListen(ctx, args, os.Stdout, os.Stderr)
	default:
		fmt.Fprintf(os.Stderr, "jangada: unknown command %q\n\n%s", cmd, usage)
		os.Exit(2)
	}
	switch {
	case errors.Is(err, errUsage), isUsage(err):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "jangada:", err)
		os.Exit(1)
	}
}

func setupLogging(level string) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		l = slog.LevelInfo
	}
	// Each line carries the trace id of its context's span, when tracing is on.
	slog.SetDefault(app.NewLogger(os.Stderr, l))
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
	before, err := db.AppliedMigrations(ctx, d)
	if err != nil {
		return err
	}
	if err := db.Migrate(ctx, d); err != nil {
		return err
	}
	after, err := db.AppliedMigrations(ctx, d)
	if err != nil {
		return err
	}
	fmt.Println(migrateReport(before, after))
	return nil
}

// migrateReport says what a migration run did.
func migrateReport(before, after db.MigrationState) string {
	if n := after.Applied - before.Applied; n > 0 {
		return fmt.Sprintf("migrated: applied %d migration(s); the schema is at version %d", n, after.Version)
	}
	return fmt.Sprintf("nothing to migrate: the schema is up to date at version %d (%d migrations)", after.Version, after.Applied)
}

// runProcess runs one production role until SIGINT/SIGTERM.
func runProcess(ctx context.Context, cfg config.Config, opts app.Options) error {
	if cfg.TemporalAddress == "" {
		return fmt.Errorf("JANGADA_TEMPORAL_ADDRESS is required (use `jangada dev` for an embedded server)")
	}
	tp, flush, err := app.Tracing(ctx)
	if err != nil {
		return err
	}
	defer flushTraces(flush)
	opts.TracerProvider = tp
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

// flushTraces sends the spans still buffered at shutdown.
func flushTraces(flush func(context.Context) error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := flush(ctx); err != nil {
		slog.Warn("traces not flushed", "error", err)
	}
}
