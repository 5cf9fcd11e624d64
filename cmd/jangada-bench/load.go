//go:build devserver

package main

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// result summarises one measured run.
type result struct {
	name        string
	concurrency int
	n, errors   int
	elapsed     time.Duration
	p50, p99    time.Duration
	firstErr    error
	// cpu is what the run cost the machine (set by paired).
	cpu cpuUse
	// lat holds every latency, sorted, so that rounds can be merged.
	lat []time.Duration
}

func (r result) perSecond() float64 { return float64(r.n-r.errors) / r.elapsed.Seconds() }

func (r result) String() string {
	s := fmt.Sprintf("%-34s c=%-3d n=%-5d err=%-3d %8.1f/s  p50 %8.2f ms  p99 %8.2f ms",
		r.name, r.concurrency, r.n, r.errors, r.perSecond(), ms(r.p50), ms(r.p99))
	if r.cpu != (cpuUse{}) {
		s += fmt.Sprintf("  CPU/op: bench process %.2f ms, PostgreSQL %.2f ms", ms(r.cpu.self)/float64(r.n), ms(r.cpu.pg)/float64(r.n))
	}
	return s
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// run calls op n times from c goroutines and collects latencies.
func run(ctx context.Context, name string, c, n int, op func(ctx context.Context, i int) error) result {
	lat := make([]time.Duration, n)
	var next, errs atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				t0 := time.Now()
				if err := op(ctx, i); err != nil {
					errs.Add(1)
					firstErr.CompareAndSwap(nil, err)
				}
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	r := result{name: name, concurrency: c, n: n, errors: int(errs.Load()), elapsed: time.Since(start)}
	if e, ok := firstErr.Load().(error); ok {
		r.firstErr = e
	}
	slices.Sort(lat)
	r.lat = lat
	r.p50, r.p99 = lat[n/2], lat[min(n-1, n*99/100)]
	return r
}

// merge sums rounds of one measurement: their ops, errors and time, and
// the percentiles of all their latencies together.
func merge(parts []result) result {
	m := result{name: parts[0].name, concurrency: parts[0].concurrency}
	for _, p := range parts {
		m.n += p.n
		m.errors += p.errors
		m.elapsed += p.elapsed
		m.cpu = m.cpu.add(p.cpu)
		m.lat = append(m.lat, p.lat...)
		if m.firstErr == nil {
			m.firstErr = p.firstErr
		}
	}
	slices.Sort(m.lat)
	m.p50, m.p99 = m.lat[m.n/2], m.lat[min(m.n-1, m.n*99/100)]
	return m
}

// pairRounds is how many rounds paired splits a measurement into.
const pairRounds = 4

// paired measures Jangada and its bare baseline in alternating rounds, in
// the order bare, ours, ours, bare (ABBA), and merges each side's rounds.
// Measured one after the other, the second side always ran on a store
// grown by the first side's executions and task backlog: with the creates
// measured first, the same code gave a creates/s ratio 0.1 higher than
// with the bare starts first. Alternating cancels that drift.
//
// settle, when set, waits for the work Jangada's side left running when
// its last request answered; the wait counts in that side's time.
//
// On the money rows (r.analyzeRounds) each round ends with the rig's
// tables analyzed (analyze), untimed.
func (r *rig) paired(ctx context.Context, c, n int, bareName string, bare func(context.Context, int) error,
	oursName string, ours func(context.Context, int) error, settle func(context.Context) error) (b, o result) {
	var bs, our []result
	per := max(n/pairRounds, 1)
	for i := range pairRounds {
		measureBare := func() {
			c0 := readCPU()
			res := run(ctx, bareName, c, per, bare)
			res.cpu = readCPU().sub(c0)
			bs = append(bs, res)
			printRound(i, res)
			r.analyze(ctx)
			pause()
		}
		measureOurs := func() {
			c0 := readCPU()
			res := run(ctx, oursName, c, per, ours)
			if settle != nil {
				t0 := time.Now()
				if err := settle(ctx); err != nil && res.firstErr == nil {
					res.firstErr = err
				}
				res.elapsed += time.Since(t0)
			}
			res.cpu = readCPU().sub(c0)
			our = append(our, res)
			printRound(i, res)
			r.analyze(ctx)
			pause()
		}
		if i%2 == 0 {
			measureBare()
			measureOurs()
		} else {
			measureOurs()
			measureBare()
		}
	}
	return merge(bs), merge(our)
}

// printRound prints one round of a paired measurement when -rounds asks.
func printRound(i int, res result) {
	if *showRounds {
		fmt.Printf("    round %d: %s\n", i+1, res)
	}
}

func numCPU() int { return runtime.NumCPU() }
