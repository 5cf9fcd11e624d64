// Command jangada-soak is Jangada's chaos and soak test (`make soak`; the
// short variant `-quick` runs in `make test`). On this machine, loopback
// only, it runs the production split — the embedded Temporal as its own
// process (`jangada temporal`), two `jangada api` and two `jangada worker`
// processes on one PostgreSQL database — drives a mixed load (charges paid
// and expired through the sandbox routes, PIX outs, refunds, internal
// transfers, and beside them every other product — billings and their
// refunds, subscriptions, checkouts, MED, PIX automatic, mobile recharge,
// credit bureau, crypto — webhook deliveries to a local receiver, WebSocket
// subscribers on each api process) while it injects faults (a worker SIGKILLed and
// restarted, an api process restarted, PostgreSQL restarted), then checks
// the ledger, the balances, that nothing happened twice, that every
// accepted operation reached its final state, that every event reached its
// webhook endpoint once per delivery id and that WebSocket subscribers got
// their events. It prints one line per check and exits 1 on any failure.
// docs/soak.md describes it.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jangada/jangada/internal/procs"
)

// options are the command's flags.
type options struct {
	quick     bool
	duration  time.Duration
	merchants int
	workers   int
	pacing    time.Duration
	bin       string
	pg        string
	sharedURL string
	keep      bool
	pgRestart bool
	scenarios bool
	cluster   int
	shards    int
	nodeLog   string
}

func main() {
	var o options
	flag.BoolVar(&o.quick, "quick", false, "the short variant of make test: 30 s of load, one fault (a worker SIGKILLed and restarted)")
	flag.DurationVar(&o.duration, "duration", 0, "how long the load runs (default 3m, 30s with -quick)")
	flag.IntVar(&o.merchants, "merchants", 4, "merchant accounts")
	flag.IntVar(&o.workers, "concurrency", 4, "load goroutines")
	flag.DurationVar(&o.pacing, "pacing", 100*time.Millisecond, "pause between two operations of one load goroutine")
	flag.StringVar(&o.bin, "bin", "", "a jangada binary built with -tags devserver (default: build one)")
	flag.StringVar(&o.pg, "pg", "", "private (a cluster of the soak's own, really restarted) or shared (the server at -pg-url; the restart is simulated); default private, shared with -quick")
	// JANGADA_TEST_DATABASE_URL points make test (and so the quick soak) at another server.
	flag.StringVar(&o.sharedURL, "pg-url", cmp.Or(os.Getenv("JANGADA_TEST_DATABASE_URL"), "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"),
		"the shared PostgreSQL's maintenance database (default JANGADA_TEST_DATABASE_URL, else the local server)")
	flag.BoolVar(&o.pgRestart, "pg-restart", true, "restart PostgreSQL during the full run (false: only the worker SIGKILL and the api restart)")
	flag.BoolVar(&o.scenarios, "scenarios", true, "run the scenarios beside the load (lost answers, sub-account limits, locks and deletes racing charges and refunds, every other product)")
	flag.IntVar(&o.cluster, "cluster", 0, "run Temporal as a cluster of this many nodes on the soak's PostgreSQL (0: the embedded dev server on SQLite); with 2 or more, node 2 (the frontend api-2 and worker-2 dial) is SIGKILLed mid-load and restarted")
	flag.IntVar(&o.shards, "shards", 8, "history shards of the -cluster")
	flag.StringVar(&o.nodeLog, "node-log", "warn", "the -cluster nodes' log level (info: shard acquisition and membership, in temporal-N.log)")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary directory (process logs) even when every check passes")
	flag.Parse()
	if o.duration == 0 {
		o.duration = 3 * time.Minute
		if o.quick {
			o.duration = 30 * time.Second
		}
	}
	if o.pg == "" {
		o.pg = "private"
		if o.quick {
			o.pg = "shared"
		}
	}
	if o.merchants < 2 || o.workers < 1 || o.duration < 10*time.Second || (o.pg != "private" && o.pg != "shared") ||
		o.cluster < 0 || (o.cluster > 0 && o.shards <= o.cluster) {
		fmt.Fprintln(os.Stderr, "soak: need -merchants ≥ 2, -concurrency ≥ 1, -duration ≥ 10s, -pg private|shared, -shards > -cluster")
		os.Exit(2)
	}
	// The whole run is bounded: load, faults, waits and teardown.
	ctx, cancel := context.WithTimeout(context.Background(), o.duration+15*time.Minute)
	defer cancel()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ok, err := run(ctx, o)
	if err != nil {
		fmt.Println("FAIL  soak could not run:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

// rig is the running split.
type rig struct {
	tmp      string
	pg       *postgres
	split    *procs.Split
	temporal *proc
	apis     []*proc
	workers  []*proc
	// redis holds the api processes' shared budgets.
	redis *privateRedis
	// scen are the issue-21 scenarios, told of each fault as it begins.
	scen *scen
	// shards is the Temporal cluster's shard count (0: the dev server).
	shards int
}

// run sets the split up, drives it, checks it and tears it down; it
// reports whether every check passed.
func run(ctx context.Context, o options) (bool, error) {
	began := time.Now()
	tmp, err := os.MkdirTemp("", "jangada-soak-")
	if err != nil {
		return false, err
	}
	r := &rig{tmp: tmp}
	if o.cluster > 0 {
		r.shards = o.shards
	}
	passed := false
	defer func() {
		r.teardown()
		if passed && !o.keep {
			os.RemoveAll(tmp)
		} else {
			fmt.Println("logs kept in", tmp)
		}
	}()
	if o.bin == "" {
		fmt.Println("building jangada with -tags devserver…")
		if o.bin, err = buildBinary(ctx); err != nil {
			return false, err
		}
	}
	if err := r.start(ctx, o); err != nil {
		return false, err
	}
	temporal := "temporal dev server"
	if r.temporal != nil {
		temporal += " " + r.temporal.HTTPAddr
	} else {
		temporal = fmt.Sprintf("temporal cluster of %d nodes, %d shards, frontends %s", o.cluster, o.shards, strings.Join(r.split.Cluster.Frontends, ","))
	}
	fmt.Printf("split up in %.1f s: %s, api %s and %s, 2 workers, database %s\n",
		time.Since(began).Seconds(), temporal, r.apis[0].HTTPAddr, r.apis[1].HTTPAddr, r.pg.dbName)
	if r.split.Cluster != nil {
		if v, err := procs.Describe(ctx, r.split.Cluster.Frontends[0]); err == nil {
			fmt.Println("membership:", v)
		}
	}
	fmt.Println("PostgreSQL restart:", map[bool]string{true: r.pg.restartMethod(), false: "none in this run"}[!o.quick && o.pgRestart])
	passed, err = r.soak(ctx, o)
	fmt.Printf("soak total %.1f s\n", time.Since(began).Seconds())
	return passed, err
}

// start brings up PostgreSQL, Temporal, migrations, two workers and two
// api processes, every one bound to 127.0.0.1.
func (r *rig) start(ctx context.Context, o options) error {
	var err error
	if o.pg == "private" {
		if r.pg, err = startPrivate(ctx, r.tmp); err != nil {
			return fmt.Errorf("private PostgreSQL (use -pg shared to simulate the restart on the shared server instead): %w", err)
		}
	} else {
		r.pg = shared(o.sharedURL)
	}
	if err := r.pg.createDatabase(ctx); err != nil {
		return err
	}
	var cluster *procs.ClusterOptions
	if o.cluster > 0 {
		u, err := url.Parse(r.pg.adminURL)
		if err != nil {
			return err
		}
		// Its databases sit beside the soak's, named after it: dropped at
		// the end (with the private cluster, or one by one on a shared one).
		cluster = &procs.ClusterOptions{PG: u.Host, Database: strings.Replace(r.pg.dbName, "jangada_soak_", "temporal_cluster_", 1),
			Nodes: o.cluster, Shards: o.shards, NodeLog: o.nodeLog}
	}
	// Both api processes share every budget through a Redis of the soak's
	// own (budgets.go), which the full soak restarts.
	if r.redis, err = startRedis(ctx, r.tmp); err != nil {
		return err
	}
	r.split, err = procs.Start(ctx, procs.Options{Bin: o.bin, Dir: r.tmp, DatabaseURL: r.pg.dbURL, APIs: 2, Workers: 2, Cluster: cluster, Env: map[string]string{
		"JANGADA_REDIS_URL":              r.redis.url(),
		"JANGADA_API_REPLICAS":           "2",
		"JANGADA_WS_MAX_PER_KEY":         strconv.Itoa(wsCapPerKey),
		"JANGADA_TASK_QUEUE":             "jangada-soak",
		"JANGADA_WEBHOOK_RETRY_SCHEDULE": "1s,2s,5s,10s,20s",
		"JANGADA_SANDBOX_SETTLE_DELAY":   "1s",
		"JANGADA_LOG_LEVEL":              "warn",
	}})
	r.temporal, r.apis, r.workers = r.split.Temporal, r.split.APIs, r.split.Workers
	return err
}

// teardown stops every process (SIGTERM, then SIGKILL after a grace) and
// the database.
func (r *rig) teardown() {
	if r.split != nil {
		r.split.Stop(20 * time.Second)
		if err := r.split.Cluster.DropDatabases(r.pg.adminURL); err != nil {
			fmt.Println("dropping the Temporal cluster's databases:", err)
		}
	}
	if r.pg != nil {
		r.pg.stop()
	}
	if r.redis != nil {
		r.redis.stop()
	}
}
