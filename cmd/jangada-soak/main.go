// Command jangada-soak is Jangada's chaos and soak test (`make soak`; the
// short variant `-quick` runs in `make test`). On this machine, loopback
// only, it runs the production split — the embedded Temporal as its own
// process (`jangada temporal`), two `jangada api` and two `jangada worker`
// processes on one PostgreSQL database — drives a mixed load (charges paid
// and expired through the sandbox routes, PIX outs, refunds, internal
// transfers, webhook deliveries to a local receiver, WebSocket subscribers
// on each api process) while it injects faults (a worker SIGKILLed and
// restarted, an api process restarted, PostgreSQL restarted), then checks
// the ledger, the balances, that nothing happened twice, that every
// accepted operation reached its final state, that every event reached its
// webhook endpoint once per delivery id and that WebSocket subscribers got
// their events. It prints one line per check and exits 1 on any failure.
// docs/soak.md describes it.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jangada/jangada/codec"
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
	flag.StringVar(&o.sharedURL, "pg-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "the shared PostgreSQL's maintenance database")
	flag.BoolVar(&o.pgRestart, "pg-restart", true, "restart PostgreSQL during the full run (false: only the worker SIGKILL and the api restart)")
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
	if o.merchants < 2 || o.workers < 1 || o.duration < 10*time.Second || (o.pg != "private" && o.pg != "shared") {
		fmt.Fprintln(os.Stderr, "soak: need -merchants ≥ 2, -concurrency ≥ 1, -duration ≥ 10s, -pg private|shared")
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
	temporal *proc
	apis     []*proc
	workers  []*proc
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
	fmt.Printf("split up in %.1f s: temporal %s, api %s and %s, 2 workers, database %s\n",
		time.Since(began).Seconds(), r.temporal.httpAddr, r.apis[0].httpAddr, r.apis[1].httpAddr, r.pg.dbName)
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
	if err := r.pg.createDatabase(); err != nil {
		return err
	}
	tport, err := freePort()
	if err != nil {
		return err
	}
	b := make([]byte, 16)
	rand.Read(b)
	common := map[string]string{
		"JANGADA_DATABASE_URL":           r.pg.dbURL,
		"JANGADA_TEMPORAL_ADDRESS":       fmt.Sprintf("127.0.0.1:%d", tport),
		"JANGADA_TEMPORAL_NAMESPACE":     "default",
		"JANGADA_TASK_QUEUE":             "jangada-soak",
		"JANGADA_PAYLOAD_KEY":            codec.NewKey(),
		"JANGADA_ADMIN_TOKEN":            "soak_" + hex.EncodeToString(b),
		"JANGADA_WEBHOOK_ALLOW_PRIVATE":  "true", // the receiver is on 127.0.0.1
		"JANGADA_WEBHOOK_RETRY_SCHEDULE": "1s,2s,5s,10s,20s",
		"JANGADA_SANDBOX_SETTLE_DELAY":   "1s",
		"JANGADA_LOG_LEVEL":              "warn",
		"JANGADA_DATA_DIR":               filepath.Join(r.tmp, "data"),
		"JANGADA_DEV_TEMPORAL_PORT":      fmt.Sprint(tport),
		"JANGADA_DEV_TEMPORAL_UI_PORT":   "0",
		"JANGADA_HTTP_ADDR":              "127.0.0.1:0",
		"JANGADA_WS_ADDR":                "127.0.0.1:0",
	}
	newProc := func(name string, args []string, extra map[string]string) *proc {
		env := map[string]string{}
		for k, v := range common {
			env[k] = v
		}
		for k, v := range extra {
			env[k] = v
		}
		p := &proc{name: name, bin: o.bin, args: args, env: cleanEnv(env), log: filepath.Join(r.tmp, name+".log")}
		p.httpAddr, p.wsAddr = extra["JANGADA_HTTP_ADDR"], extra["JANGADA_WS_ADDR"]
		return p
	}
	r.temporal = newProc("temporal", []string{"temporal"}, nil)
	r.temporal.httpAddr = common["JANGADA_TEMPORAL_ADDRESS"]
	if err := r.temporal.start(); err != nil {
		return err
	}
	if err := waitLog(ctx, r.temporal, "temporal ready", 2*time.Minute); err != nil {
		return err
	}
	if err := runOnce(ctx, o.bin, cleanEnv(common), filepath.Join(r.tmp, "migrate.log"), "migrate"); err != nil {
		return err
	}
	for i := 1; i <= 2; i++ {
		w := newProc(fmt.Sprintf("worker-%d", i), []string{"worker"}, nil)
		if err := w.start(); err != nil {
			return err
		}
		r.workers = append(r.workers, w)
	}
	for i := 1; i <= 2; i++ {
		h, err1 := freeAddr()
		ws, err2 := freeAddr()
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		a := newProc(fmt.Sprintf("api-%d", i), []string{"api"}, map[string]string{"JANGADA_HTTP_ADDR": h, "JANGADA_WS_ADDR": ws})
		if err := a.start(); err != nil {
			return err
		}
		r.apis = append(r.apis, a)
	}
	for _, a := range r.apis {
		if err := waitReady(ctx, a, 2*time.Minute); err != nil {
			return err
		}
	}
	return nil
}

// waitLog polls p's log until it holds line, p exits, or the deadline.
func waitLog(ctx context.Context, p *proc, line string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if b, _ := os.ReadFile(p.log); strings.Contains(string(b), line) {
			return nil
		}
		if !p.running() {
			return fmt.Errorf("%s exited while starting (log %s)", p.name, p.log)
		}
		pause(ctx, 100*time.Millisecond)
	}
	return fmt.Errorf("%s: no %q within %v (log %s)", p.name, line, within, p.log)
}

// teardown stops every process (SIGTERM, then SIGKILL after a grace) and
// the database.
func (r *rig) teardown() {
	var wg sync.WaitGroup
	for _, p := range append(append([]*proc{}, r.apis...), r.workers...) {
		wg.Add(1)
		go func() { defer wg.Done(); p.signal(syscall.SIGTERM, 20*time.Second) }()
	}
	wg.Wait()
	if r.temporal != nil {
		r.temporal.signal(syscall.SIGTERM, 20*time.Second)
	}
	if r.pg != nil {
		r.pg.stop()
	}
}
