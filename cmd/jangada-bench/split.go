//go:build devserver

package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/procs"
	"github.com/jangada/jangada/service"
)

// splitQueue is the split's task queue, the in-process rig's: its webhook
// queue is splitQueue + "-webhooks" (config.WebhookQueue).
const splitQueue = "jangada"

// splitBin is the jangada binary every split rig of one bench run starts:
// built once into a temporary directory that runSplit removes.
var splitBin struct {
	mu        sync.Mutex
	dir, path string
}

// splitBinary builds the binary on first use.
func splitBinary(ctx context.Context) (string, error) {
	splitBin.mu.Lock()
	defer splitBin.mu.Unlock()
	if splitBin.path != "" {
		return splitBin.path, nil
	}
	dir, err := os.MkdirTemp("", "jangada-bench-bin-")
	if err != nil {
		return "", err
	}
	splitBin.dir = dir
	fmt.Println("building jangada with -tags devserver…")
	splitBin.path, err = procs.Build(ctx, dir)
	return splitBin.path, err
}

func removeSplitBinary() {
	splitBin.mu.Lock()
	defer splitBin.mu.Unlock()
	if splitBin.dir != "" {
		os.RemoveAll(splitBin.dir)
	}
	splitBin.dir, splitBin.path = "", ""
}

// startSplitRig starts the production shape — `jangada temporal` (file
// store), or a Temporal cluster of nodes on pg, one `jangada api` and
// workers `jangada worker` processes on a fresh database of pg — and fills
// the rig the phases use. The rig returned is never nil: stop it whatever
// the error.
func startSplitRig(ctx context.Context, workers, nodes int, pg *splitServer) (*rig, error) {
	r := &rig{http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128}, Timeout: 30 * time.Second}}
	bin, err := splitBinary(ctx)
	if err != nil {
		return r, err
	}
	if r.tmp, err = os.MkdirTemp("", "jangada-bench-split-"); err != nil {
		return r, err
	}
	// rig.stop drops r.dbName through r.adminURL once the processes are gone.
	r.adminURL = pg.adminURL
	r.dbName = "jangada_bench_" + strings.ToLower(rand.Text()[:10])
	dbURL, _ := url.Parse(r.adminURL)
	dbURL.Path = "/" + r.dbName
	// The in-process rig's configuration, as environment, but for the
	// default rate budget, raised so that no 429 can shape a figure (the
	// bench key has its own); the split adds what every split needs
	// (payload key, admin token, webhooks to 127.0.0.1 allowed).
	var cluster *procs.ClusterOptions
	if nodes > 0 {
		// A Temporal cluster on the same PostgreSQL as Jangada's database,
		// as a deployment sized per docs/deploy.md: its databases named
		// after the rig's and dropped with it.
		cluster = &procs.ClusterOptions{PG: dbURL.Host, Database: strings.Replace(r.dbName, "jangada_bench_", "temporal_cluster_", 1),
			Nodes: nodes, Shards: splitShards, Conns: pg.nodeConns()}
	}
	split, err := procs.Start(ctx, procs.Options{Bin: bin, Dir: r.tmp, DatabaseURL: dbURL.String(), APIs: 1, Workers: workers, Cluster: cluster,
		Env: map[string]string{
			"JANGADA_TASK_QUEUE":            splitQueue,
			"JANGADA_PROCESSOR":             "sandbox",
			"JANGADA_RATE_LIMIT_PER_MINUTE": "1000000",
			"JANGADA_SHUTDOWN_TIMEOUT":      "5s",
			"JANGADA_LOG_LEVEL":             "warn",
		}})
	r.split = split
	r.stopExtra = func() {
		if r.db != nil {
			r.db.Close()
		}
		split.Stop(20 * time.Second)
		if split.Cluster != nil {
			if err := split.Cluster.DropDatabases(r.adminURL); err != nil {
				fmt.Println("dropping the Temporal cluster's databases:", err)
			}
		}
	}
	if err != nil {
		return r, fmt.Errorf("split: %w", err)
	}
	api := split.APIs[0]
	r.base, r.wsAddr = "http://"+api.HTTPAddr, api.WSAddr
	if r.db, err = db.Open(ctx, dbURL.String()); err != nil {
		return r, err
	}
	if err := r.benchAccount(ctx); err != nil {
		return r, err
	}
	// The bench's own client: the bare baselines, and the poller check. It
	// has no payload codec: the bare workflows are the bench's, not sealed.
	quiet := log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	frontend := ""
	if split.Cluster != nil {
		frontend = split.Cluster.Frontends[0]
	} else {
		frontend = split.Temporal.HTTPAddr
	}
	if r.client, err = client.Dial(client.Options{HostPort: frontend, Namespace: api.Getenv("JANGADA_TEMPORAL_NAMESPACE"), Logger: quiet}); err != nil {
		return r, err
	}
	// /readyz wants one worker; the figure is about all of them.
	if err := waitPollers(ctx, r.client, api.Getenv("JANGADA_TEMPORAL_NAMESPACE"), workers); err != nil {
		return r, err
	}
	return r, r.startBareWorker()
}

// benchAccount makes the merchant the phases act as, straight in the
// database as the in-process rig does (no admin API round trip).
func (r *rig) benchAccount(ctx context.Context) error {
	acct, err := service.NewAccount(ctx, r.db, "Loja Bench", "bench@jangada.dev", "11222333000181")
	if err == nil {
		r.accountID, r.email = acct.ID, acct.Email
		_, r.key, err = service.NewKey(ctx, r.db, acct.ID, domain.NewKey{Name: "bench", Permissions: []string{"*"}, RateLimitPerMinute: 1_000_000})
	}
	return err
}

// waitPollers waits until n distinct worker processes poll the money and
// the webhook queues: a worker still connecting would do no share of the
// first phase, and the row would understate what n workers do.
func waitPollers(ctx context.Context, c client.Client, namespace string, n int) error {
	deadline := time.Now().Add(time.Minute)
	queues := []string{splitQueue, splitQueue + "-webhooks"}
	for {
		short := ""
		for _, q := range queues {
			res, err := c.WorkflowService().DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{
				Namespace: namespace, TaskQueue: &taskqueue.TaskQueue{Name: q, Kind: enums.TASK_QUEUE_KIND_NORMAL},
				TaskQueueType: enums.TASK_QUEUE_TYPE_WORKFLOW,
			})
			if err != nil {
				return err
			}
			ids := map[string]bool{}
			for _, p := range res.GetPollers() {
				ids[p.GetIdentity()] = true
			}
			if len(ids) < n {
				short = fmt.Sprintf("%s has %d of %d worker processes polling", q, len(ids), n)
			}
		}
		if short == "" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("workers: %s after a minute", short)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// splitRow is one line of the split table: one count of worker processes.
type splitRow struct {
	workers int
	// cpu is each kind of process's CPU per create (creates alone).
	cpu                 splitCPU
	creates, bareStarts result
	hooks, hooksBare    hookRun
	// payWS and payBare are pay → WebSocket and the bare signal → activity
	// on the split's Temporal (c=1).
	payWS, payBare result
	// failed lists the delivery attempts that got no 2xx.
	failed string
}

// runSplit measures creates/s and deliveries/s on the production shape
// for each count of worker processes, each on a fresh split, beside the
// bare baselines on that split's Temporal, and prints one table.
func runSplit(ctx context.Context, workerCounts []int, nodes int, sz sizes) error {
	// An interrupt ends the run through ctx, so that the deferred teardown
	// runs: pg_ctl detaches a private server from the bench, and it would
	// outlive a bench killed by the signal. A second interrupt waits for
	// the teardown too.
	ctx, stopSignals := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	defer removeSplitBinary()
	pg := startSplitServer(ctx, nodes)
	defer pg.stop()
	if pg.private != nil {
		pgCPUServer.Store(pg.private)
		defer pgCPUServer.Store(nil)
	}
	fmt.Println("PostgreSQL:", pg)
	var rows []splitRow
	defer func() { printSplit(rows, sz, pg) }()
	for _, n := range workerCounts {
		temporal := "jangada temporal"
		if nodes > 0 {
			temporal = fmt.Sprintf("a Temporal cluster of %d nodes on PostgreSQL (%d shards)", nodes, splitShards)
		}
		fmt.Printf("\n— split: %s, 1 jangada api, %d jangada worker —\n", temporal, n)
		began := time.Now()
		r, err := startSplitRig(ctx, n, nodes, pg)
		if err == nil {
			fmt.Printf("up in %.1f s\n", time.Since(began).Seconds())
			var row splitRow
			row, err = splitPhases(ctx, r, n, sz)
			if ctx.Err() != nil {
				// The phases stop short on an interrupt: their figures
				// would be the interrupt's.
				err = fmt.Errorf("interrupted: %w", context.Cause(ctx))
			} else {
				rows = append(rows, row)
			}
		}
		if err != nil {
			// The process logs say why: keep them.
			fmt.Println("process logs kept in", r.tmp)
			r.tmp = ""
		}
		r.stop()
		if err != nil {
			return fmt.Errorf("%d workers: %w", n, err)
		}
	}
	return nil
}

// splitShards is the history shard count of a -cluster split: more than
// its nodes, as a deployment has.
const splitShards = 8

// splitSharedNodeConns caps a -cluster node's pools (per database) when
// the cluster falls back to the shared server: two nodes take 32
// connections, and the api and worker fit beside them under its 100.
const splitSharedNodeConns = 8

// splitPhases runs the split's figures on one rig: creates, deliveries,
// pay → WebSocket.
func splitPhases(ctx context.Context, r *rig, n int, sz sizes) (splitRow, error) {
	row := splitRow{workers: n}
	fmt.Println("warming up…")
	run(ctx, "warm-up", 4, 50, r.createCharge)
	run(ctx, "warm-up", 4, 50, r.startBare(idleQueue, "BenchNoop"))
	pause()
	row.bareStarts, row.creates = r.paired(ctx, 32, sz.n32, "bare StartWorkflow (no worker)", r.startBare(idleQueue, "BenchNoop"),
		"POST /v1/payment-pix/create", r.createCharge, r.chargesStarted)
	fmt.Println(row.bareStarts)
	fmt.Println(row.creates)
	if row.creates.firstErr != nil {
		fmt.Println("   first error:", row.creates.firstErr)
	}
	pause()
	var alone result
	row.cpu, alone = cpuPerOp(ctx, r.split, "creates alone (CPU per create)", 32, sz.n32/2, r.createCharge)
	fmt.Println(alone)
	fmt.Println("   CPU per create, ms:", row.cpu)
	pause()
	var err error
	row.hooks, row.hooksBare, err = deliveries(ctx, r, sz.charges)
	if err != nil {
		return row, err
	}
	fmt.Println(row.hooksBare)
	fmt.Println(row.hooks)
	row.failed = failedAttempts(ctx, r)
	if row.failed != "" {
		fmt.Println("   failed attempts, retried on the schedule:", row.failed)
	}
	pause()
	row.payWS, row.payBare, err = payToWS(ctx, r, sz.payWS)
	if err != nil {
		return row, err
	}
	fmt.Println(row.payBare)
	fmt.Println(row.payWS)
	return row, nil
}

// failedAttempts summarises the delivery attempts that got no 2xx: one
// retried on the default schedule (first retry after a minute) stretches
// the delivery window, and the table should say why.
func failedAttempts(ctx context.Context, r *rig) string {
	var rows []struct {
		Why string `db:"why"`
		N   int    `db:"n"`
	}
	err := r.db.SelectContext(ctx, &rows, `SELECT coalesce(error, 'HTTP ' || status_code) AS why, count(*) AS n
		FROM webhook_attempts WHERE error IS NOT NULL OR status_code NOT BETWEEN 200 AND 299 GROUP BY 1 ORDER BY 2 DESC`)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	var out []string
	for _, x := range rows {
		out = append(out, fmt.Sprintf("%d × %s", x.N, x.Why))
	}
	return strings.Join(out, "; ")
}

// printSplit prints the table of the rows measured so far, on pg.
func printSplit(rows []splitRow, sz sizes, pg *splitServer) {
	if len(rows) == 0 {
		return
	}
	fmt.Println()
	fmt.Printf("Production split (1 api process; creates: %d at c=32; deliveries: %d charges created+paid at c=32, 2 events each)\n", sz.n32, sz.charges)
	fmt.Printf("PostgreSQL (Jangada's database and any Temporal cluster's): %s\n\n", pg)
	fmt.Println("| worker processes | creates/s | bare StartWorkflow/s | ratio | deliveries/s | bare deliveries/s | ratio | lost | pay → WS p50 | bare signal → activity p50 | ratio |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, w := range rows {
		hooks, hooksRatio, lost := "—", "—", "—"
		if w.hooks.expected > 0 {
			hooks = fmt.Sprintf("%.1f", w.hooks.perSecond())
			hooksRatio = fmt.Sprintf("%.2f", w.hooks.perSecond()/w.hooksBare.perSecond())
			lost = fmt.Sprintf("%d (bare %d)", w.hooks.loss(), w.hooksBare.loss())
		}
		note := ""
		if w.creates.errors > 0 {
			note = " " + errNote(w.creates)
		}
		fmt.Printf("| %d | %.1f%s | %.1f | %.2f | %s | %.1f | %s | %s | %s | %s | %.2f |\n", w.workers, w.creates.perSecond(), note,
			w.bareStarts.perSecond(), w.creates.perSecond()/w.bareStarts.perSecond(), hooks, w.hooksBare.perSecond(), hooksRatio, lost,
			msf(w.payWS.p50), msf(w.payBare.p50), ms(w.payWS.p50)/ms(w.payBare.p50))
	}
	fmt.Println()
	for _, w := range rows {
		fmt.Printf("%d worker processes: CPU per create (creates alone, c=32), ms: %s\n", w.workers, w.cpu)
	}
	for _, w := range rows {
		if w.failed != "" {
			fmt.Printf("\n%d worker processes: delivery attempts without a 2xx, retried on the schedule (first retry after 1 min): %s\n", w.workers, w.failed)
		}
	}
}

// parseWorkers reads -split: worker process counts, comma-separated.
func parseWorkers(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-split %q: want worker counts ≥ 1, comma-separated, like 1,2", s)
		}
		out = append(out, n)
	}
	return out, nil
}
