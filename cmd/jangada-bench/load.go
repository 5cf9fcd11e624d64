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
}

func (r result) perSecond() float64 { return float64(r.n-r.errors) / r.elapsed.Seconds() }

func (r result) String() string {
	return fmt.Sprintf("%-34s c=%-3d n=%-5d err=%-3d %8.1f/s  p50 %8.2f ms  p99 %8.2f ms",
		r.name, r.concurrency, r.n, r.errors, r.perSecond(), ms(r.p50), ms(r.p99))
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
	r.p50, r.p99 = lat[n/2], lat[min(n-1, n*99/100)]
	return r
}

func numCPU() int { return runtime.NumCPU() }
