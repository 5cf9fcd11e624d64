//go:build devserver

package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/client"
)

// runAll runs every phase; quick stops after the charge-create phases.
func runAll(ctx context.Context, r *rig, n1, n32 int, quick bool) error {
	var seq atomic.Int64
	var mu sync.Mutex
	var started []client.WorkflowRun
	start := func(name string, wait bool) func(ctx context.Context, i int) error {
		return func(ctx context.Context, i int) error {
			run, err := r.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
				ID: fmt.Sprintf("bench-%s-%d", name, seq.Add(1)), TaskQueue: bareQueue,
			}, name)
			if err != nil {
				return err
			}
			if !wait {
				mu.Lock()
				started = append(started, run)
				mu.Unlock()
				return nil
			}
			return run.Get(ctx, nil)
		}
	}
	// settle lets the previous phase's workflows finish outside the timing,
	// so that one phase's backlog does not slow the next one down.
	settle := func() {
		for _, run := range started {
			run.Get(ctx, nil)
		}
		started = nil
		time.Sleep(2 * time.Second)
	}
	fmt.Println("warming up…")
	run(ctx, "warm-up", 4, 50, r.createCharge)
	run(ctx, "warm-up", 4, 50, start("BenchOneActivity", true))

	var results []result
	add := func(res result) result {
		fmt.Println(res)
		if res.firstErr != nil {
			fmt.Println("   first error:", res.firstErr)
		}
		results = append(results, res)
		return res
	}
	settle()
	bare1 := add(run(ctx, "bare StartWorkflow", 1, n1, start("BenchNoop", false)))
	settle()
	bare32 := add(run(ctx, "bare StartWorkflow", 32, n32, start("BenchNoop", false)))
	settle()
	rt1 := add(run(ctx, "bare start+1 activity round trip", 1, n1/2, start("BenchOneActivity", true)))
	settle()
	rt32 := add(run(ctx, "bare start+1 activity round trip", 32, n32/3, start("BenchOneActivity", true)))
	settle()
	c1 := add(run(ctx, "POST /v1/payment-pix/create", 1, n1, r.createCharge))
	settle()
	c32 := add(run(ctx, "POST /v1/payment-pix/create", 32, n32, r.createCharge))

	fmt.Println()
	fmt.Printf("create p50 / bare StartWorkflow p50 (c=1):   %.2fx  (target <= 3x)\n", ms(c1.p50)/ms(bare1.p50))
	fmt.Printf("create p50 / bare StartWorkflow p50 (c=32):  %.2fx\n", ms(c32.p50)/ms(bare32.p50))
	fmt.Printf("create p50 / start+activity p50 (c=1):       %.2fx\n", ms(c1.p50)/ms(rt1.p50))
	fmt.Printf("creates/s at c=32: %.1f (target >= 200, errors %d)\n", c32.perSecond(), c32.errors)
	fmt.Printf("start+activity/s at c=32: %.1f\n", rt32.perSecond())

	if quick {
		return firstError(results)
	}

	fmt.Println()
	settle()
	money, err := runMoney(ctx, r, n32)
	if err != nil {
		return err
	}
	for _, res := range money {
		add(res)
	}
	fmt.Printf("internal transfers/s at c=16 / bare PG tx/s: %.2f (target >= 0.5)\n", money[1].perSecond()/money[0].perSecond())

	fmt.Println()
	settle()
	ev, err := runEvents(ctx, r, n1, n32)
	if err != nil {
		return err
	}
	for _, res := range ev.latency {
		add(res)
	}
	add(ev.creates)
	for _, h := range ev.hooks {
		fmt.Println(h)
	}
	fmt.Printf("pay→WebSocket / start+activity round trip (c=1): p50 %.2f / %.2f ms = %.2fx, p99 %.2f / %.2f ms = %.2fx\n",
		ms(ev.latency[0].p50), ms(rt1.p50), ms(ev.latency[0].p50)/ms(rt1.p50),
		ms(ev.latency[0].p99), ms(rt1.p99), ms(ev.latency[0].p99)/ms(rt1.p99))
	fmt.Printf("webhook deliveries/s: %.1f while creating charges at c=32, %.1f from an outbox burst (zero loss required)\n",
		ev.hooks[0].perSecond(), ev.hooks[1].perSecond())
	if err := hooksOK(ev.hooks); err != nil {
		return fmt.Errorf("webhook loss: %w", err)
	}
	return firstError(results)
}

// firstError fails the run when any phase had errors.
func firstError(results []result) error {
	for _, res := range results {
		if res.errors > 0 {
			return fmt.Errorf("%s c=%d had %d errors", res.name, res.concurrency, res.errors)
		}
	}
	return nil
}
