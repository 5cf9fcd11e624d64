//go:build devserver

// Command jangada-bench is Jangada's load tool (`make bench`). In one run on
// this machine it starts an embedded Temporal server (SQLite file with WAL,
// as `make run` uses), a private database and a Jangada process (API and
// worker), then measures, on the same server:
//
//   - a bare Temporal StartWorkflow,
//   - a bare start + one activity + completion round trip,
//   - POST /v1/payment-pix/create through HTTP,
//
// at concurrency 1 and 32, and prints throughput, p50/p99 and the ratios.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"
)

func main() {
	n1 := flag.Int("n1", 200, "requests at concurrency 1")
	n32 := flag.Int("n32", 3000, "requests at concurrency 32")
	quick := flag.Bool("quick", false, "only the Temporal baselines and charge creation")
	store := flag.String("store", "file", "Temporal store: file (the make run dev server) or memory (the test server)")
	flag.Parse()
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	rig, err := startRig(ctx, *store)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	defer rig.stop()
	fmt.Printf("Temporal store: %s\n", *store)
	if err := runAll(ctx, rig, *n1, *n32, *quick); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}
