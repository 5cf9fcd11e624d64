//go:build devserver

package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"

	"github.com/jangada/jangada/app"
	jclient "github.com/jangada/jangada/client"
	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/devserver"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/procs"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/workflows"
)

// rig is everything one bench run needs, torn down by stop.
type rig struct {
	srv      *devserver.Server
	mem      *temporaltest.TestServer
	tmp      string
	dbName   string
	adminURL string
	app      *app.App
	// db is the bench database (set-up, the bare PostgreSQL baseline, the
	// outbox burst); wsAddr the WebSocket gateway's host:port.
	db     *sqlx.DB
	wsAddr string
	// stopExtra, when set, stops what a split rig started (processes);
	// split is that split (the mixed run samples its processes).
	stopExtra func()
	split     *procs.Split
	client    client.Client
	seq       atomic.Int64
	marks     marks
	bare      sdkworker.Worker
	http      *http.Client
	base      string
	key       string
	accountID string
	email     string
	// analyzeRounds makes paired analyze the database after every round
	// (analyze): the money rows, whose lookups a plan made without
	// statistics can turn into scans.
	analyzeRounds bool
	// apiClient is the generated Go client (api), made on first use.
	apiOnce   sync.Once
	apiClient *jclient.Client
	apiErr    error
	// subs are the merchant's two funded sub-accounts (rig.subaccounts).
	subs [2]string
}

func freePort() int {
	port, _ := procs.FreePort()
	return port
}

// startRig starts Temporal with the given store: "dev" is the embedded dev
// server in the shape of `temporal server start-dev` (SQLite in memory),
// on which the figures are taken; "file" that of `make run` (SQLite file,
// WAL); "memory" the in-memory server of the integration tests.
func startRig(ctx context.Context, store string) (*rig, error) {
	r := &rig{http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128}, Timeout: 30 * time.Second}}
	var err error
	if r.tmp, err = os.MkdirTemp("", "jangada-bench-"); err != nil {
		return nil, err
	}
	frontend, namespace := "", "default"
	switch store {
	case "file", "dev":
		r.srv, err = devserver.Start(ctx, devserver.Options{
			DataDir: r.tmp, InMemory: store == "dev", Namespace: namespace, Port: freePort(), SearchAttributes: workflows.SearchAttributes(),
		})
		if err != nil {
			return nil, err
		}
		frontend = r.srv.FrontendAddress()
	case "memory":
		r.mem = temporaltest.NewServer()
		frontend, namespace = r.mem.GetFrontendHostPort(), r.mem.GetDefaultNamespace()
	default:
		return nil, fmt.Errorf("unknown store %q", store)
	}
	r.adminURL = os.Getenv("JANGADA_BENCH_DATABASE_URL")
	if r.adminURL == "" {
		r.adminURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	}
	if r.adminURL, err = flushParams(r.adminURL, *commitFlush); err != nil {
		return r, err
	}
	b := make([]byte, 5)
	rand.Read(b)
	r.dbName = "jangada_bench_" + hex.EncodeToString(b)
	u, _ := url.Parse(r.adminURL)
	u.Path = "/" + r.dbName
	cfg := config.Config{
		HTTPAddr: "127.0.0.1:0", WSAddr: "127.0.0.1:0", DatabaseURL: u.String(), TemporalAddress: frontend,
		TemporalNamespace: namespace, TaskQueue: "jangada", AdminToken: "bench", PublicURL: "http://localhost:8080",
		Processor: "sandbox", RateLimitPerMinute: 100, ShutdownTimeout: 5 * time.Second,
		// The webhook bench delivers to a receiver on 127.0.0.1, with the
		// production defaults of delivery concurrency.
		WebhookAllowPrivate: true, WebhookConcurrency: 64, WebhookPerEndpoint: 4,
		// Resolved API keys kept as in production (JANGADA_KEY_CACHE_TTL's
		// default).
		KeyCacheTTL: 2 * time.Second,
		// The group commit as shipped (JANGADA_LEDGER_BATCH), or 1 (-ledger-batch 1): each move alone.
		LedgerBatch: *ledgerBatch,
	}
	if r.app, err = app.New(ctx, cfg, app.Options{API: true, Worker: true}); err != nil {
		return r, err
	}
	if err := r.app.Start(); err != nil {
		return r, err
	}
	r.base = "http://" + r.app.HTTPAddr
	r.db, r.wsAddr = r.app.DB, r.app.WSAddr
	acct, err := service.NewAccount(ctx, r.db, "Loja Bench", "bench@jangada.dev", "11222333000181")
	if err != nil {
		return r, err
	}
	r.accountID, r.email = acct.ID, acct.Email
	if _, r.key, err = service.NewKey(ctx, r.db, acct.ID, domain.NewKey{Name: "bench", Permissions: []string{"*"}, RateLimitPerMinute: 1_000_000}); err != nil {
		return r, err
	}
	// The bare baselines run on the same server through their own client and worker.
	if r.client, err = client.Dial(client.Options{HostPort: frontend, Namespace: namespace,
		Logger: log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))}); err != nil {
		return r, err
	}
	return r, r.startBareWorker()
}

func (r *rig) stop() {
	if r.bare != nil {
		r.bare.Stop()
	}
	if r.client != nil {
		r.client.Close()
	}
	if r.app != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		r.app.Shutdown(ctx)
		cancel()
	}
	if r.stopExtra != nil {
		r.stopExtra()
	}
	if r.srv != nil {
		r.srv.Stop()
	}
	if r.mem != nil {
		r.mem.Stop()
	}
	if d, err := sql.Open("postgres", r.adminURL); err == nil {
		d.Exec("DROP DATABASE IF EXISTS " + pq.QuoteIdentifier(r.dbName) + " WITH (FORCE)")
		d.Close()
	}
	os.RemoveAll(r.tmp)
}

// chargesStarted waits until every answered create's workflow has started:
// the create answers once its records are committed and starts the
// workflow beside the answer, so a rate of creates counts the time their
// starts take to drain. A start clears its intent when it succeeds.
//
// It looks every 10 ms: at most 10 ms more per round of seconds (≤ 0.3 %),
// where looking every 2 ms ran a query per create in short rounds, each
// one CPU taken from the starts it waits for.
func (r *rig) chargesStarted(ctx context.Context) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(time.Minute)
	for {
		var left int
		if err := r.db.GetContext(ctx, &left, `SELECT count(*) FROM workflow_launches WHERE kind = 'charge'`); err != nil {
			return err
		}
		if left == 0 {
			return nil
		}
		select {
		case <-deadline:
			return fmt.Errorf("%d charges' workflows not started after a minute", left)
		case <-tick.C:
		}
	}
}

// createCharge is one POST /v1/payment-pix/create.
func (r *rig) createCharge(ctx context.Context, i int) error {
	return r.post(ctx, "/v1/payment-pix/create", map[string]any{"amount": 10 + i%100, "description": fmt.Sprintf("Bench %d", i)})
}
