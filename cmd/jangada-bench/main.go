//go:build devserver

// Command jangada-bench is Jangada's load tool (`make bench`). In one run
// on this machine it starts an embedded Temporal server (SQLite in memory,
// the shape of `temporal server start-dev`), a private database and a Jangada process (API
// and worker), and measures each hot path beside the bare machinery it
// stands on, on the same servers: charge creation against a bare
// StartWorkflow, internal transfers against a bare PostgreSQL transaction,
// webhook deliveries against bare one-activity workflows, pay→WebSocket
// against a bare signal→activity, and idle WebSocket memory against a bare
// WebSocket server. It prints a table of figures, baselines and ratios.
//
// With -split it measures the production shape instead: `jangada temporal`,
// `jangada api` and 1, then 2, `jangada worker` processes (split.go); with
// -cluster, Temporal is a cluster on PostgreSQL, and the whole split runs on
// a private PostgreSQL the bench starts and removes (split_pg.go).
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime/pprof"
	"time"
)

// ledgerBatch is the rigs' JANGADA_LEDGER_BATCH (-ledger-batch).
var ledgerBatch *int

// showRounds prints every round of a paired measurement (-rounds): a
// merged figure hides a cold first round behind the warm ones.
var showRounds *bool

// commitFlush emulates a disk whose commit flush takes this long
// (-commit-flush; see flushParams).
var commitFlush *time.Duration

func main() {
	quick := flag.Bool("quick", false, "a short run (smaller phases, 2000 WebSocket connections)")
	store := flag.String("store", "dev", "Temporal store: dev (in memory, the shape of `temporal server start-dev`), file (the make run dev server) or memory (the test server)")
	only := flag.String("only", "", "run only these phases: create1,create32,internal,hot,hotsettle,subadd,subtransfer,hooks,paywss,checkout32,boleto32,pixbilling32 (comma-separated)")
	ledgerBatch = flag.Int("ledger-batch", 32, "the group commit's batch cap (JANGADA_LEDGER_BATCH); 1 commits each internal transfer alone, as before it")
	showRounds = flag.Bool("rounds", false, "print each round of the paired rows, not only their merge")
	commitFlush = flag.Duration("commit-flush", 0, "emulate a disk whose commit flush takes this long, for both sides (PostgreSQL's commit_delay on every connection of the rigs), as on network storage")
	noWS := flag.Bool("no-ws", false, "skip the idle WebSocket memory figure")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the phases (Jangada, Temporal and the load together) to this file")
	profileFrom := flag.String("cpuprofile-from", "", "start the CPU profile when this phase begins (a late phase as it runs after the others)")
	split := flag.String("split", "", "worker process counts, like 1,2: measure the production split (jangada temporal, api, workers) instead")
	cluster := flag.Int("cluster", 0, "with -split: Temporal as a cluster of this many nodes on PostgreSQL (8 shards) instead of jangada temporal")
	var mo mixedOptions
	flag.DurationVar(&mo.duration, "mixed", 0, "run the sustained mixed load on the production split for this long instead (10m is the long form, 1m the short)")
	flag.DurationVar(&mo.bucket, "mixed-bucket", 0, "width of one point of the mixed run's series (default: a minute, or a sixth of a shorter run)")
	flag.DurationVar(&mo.probe, "mixed-probe", 0, "length of the mixed run's capacity probe (default: 30 s, 15 s for a run under 5 minutes)")
	flag.Float64Var(&mo.rate, "mixed-rate", 0, "the mixed run's arrival rate, operations/s (default: half the probe's capacity)")
	flag.IntVar(&mo.subscribers, "mixed-subscribers", 20, "authenticated WebSocket clients watching payment.* during the mixed run")
	flag.StringVar(&mo.out, "mixed-out", "", "directory of the mixed run's report and PNGs (default: bench-out/mixed-<time>)")
	flag.Parse()
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute+2*mo.duration)
	defer cancel()
	if *commitFlush > 0 && (mo.duration > 0 || *split != "") {
		// The production split runs on the machine's PostgreSQL as it is.
		fmt.Fprintln(os.Stderr, "bench: -commit-flush applies to the table's rigs only, not to -mixed or -split")
		os.Exit(2)
	}
	if mo.duration > 0 {
		if err := runMixed(ctx, mo.withDefaults()); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	sz := fullSizes()
	if *quick {
		sz = quickSizes()
	}
	sz.only = *only
	if *split != "" {
		counts, err := parseWorkers(*split)
		if err == nil {
			store := "file (jangada temporal)"
			if *cluster > 0 {
				store = fmt.Sprintf("PostgreSQL, a cluster of %d nodes", *cluster)
			}
			fmt.Printf("production split, Temporal store: %s; %d CPUs\n", store, numCPU())
			err = runSplit(ctx, counts, *cluster, sz)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	fmt.Printf("Temporal store: %s, fresh for each phase; %d CPUs\n", *store, numCPU())
	stopProfile := func() {}
	startProfile := func() {
		var err error
		if stopProfile, err = profileCPU(*cpuProfile); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
	}
	if *profileFrom == "" {
		startProfile()
	} else {
		sz.onPhase = func(name string) {
			if name == *profileFrom {
				startProfile()
			}
		}
	}
	figs, err := runTable(ctx, *store, sz)
	stopProfile()
	if err == nil && !*noWS {
		var f figure
		if f, err = wsMemory(ctx, sz.wsConns); err == nil {
			figs = append(figs, f)
		}
	}
	printTable(figs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// profileCPU starts a CPU profile into path (none when path is empty) and
// returns the function that ends it.
func profileCPU(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
