package db

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// gatherer is the queue behind every group commit of this package
// (GroupCommit's moves, SubaccountGroup's sub-account moves): requests'
// items queue while a batch is in flight on every lane, and the next free
// lane takes all of them (at most maxBatch) as one batch. It adds no wait
// of its own: alone under light load, batched under load.
type gatherer[M, O any] struct {
	maxBatch, lanes int
	timeout         time.Duration
	// run sends one batch: one outcome per item, in order, or the
	// statement's error (nothing of the batch committed).
	run func(context.Context, []M) ([]O, error)
	// failed is an item's outcome when its batch's statement failed.
	failed func(error) O
	sent   func(size int, took time.Duration)
	// queued, when set, learns that an item entered the queue (tests wait
	// on it instead of polling).
	queued func()
	once   sync.Once
	queue  chan *gathered[M, O]
}

// gathered is one request's item waiting for its batch.
type gathered[M, O any] struct {
	item M
	// state is queued (0), taken into a batch (1) or given up by its
	// request before a batch took it (2).
	state atomic.Int32
	done  chan O
}

// do queues item and waits for its outcome. A request that gives up before
// a batch took its item writes nothing (ctx's error); once taken, it waits
// for the batch's answer, so a request never reports a failure for an item
// that committed.
func (g *gatherer[M, O]) do(ctx context.Context, item M) (O, error) {
	g.once.Do(g.start)
	m := &gathered[M, O]{item: item, done: make(chan O, 1)}
	var zero O
	select {
	case g.queue <- m:
		if g.queued != nil {
			g.queued()
		}
	case <-ctx.Done():
		return zero, ctx.Err()
	}
	select {
	case out := <-m.done:
		return out, nil
	case <-ctx.Done():
		if m.state.CompareAndSwap(0, 2) {
			return zero, ctx.Err() // no batch took it: nothing was written
		}
		return <-m.done, nil // taken: its answer is what the batch did
	}
}

// start opens the queue and its collector.
func (g *gatherer[M, O]) start() {
	if g.maxBatch <= 0 {
		g.maxBatch = DefaultMaxBatch
	}
	if g.lanes <= 0 {
		g.lanes = DefaultLanes
	}
	if g.timeout <= 0 {
		g.timeout = DefaultBatchTimeout
	}
	g.queue = make(chan *gathered[M, O], 4*g.maxBatch)
	go g.collect()
}

// collect waits for a free lane, then for a first item, then takes every
// item already queued (at most maxBatch) and sends them as one batch.
func (g *gatherer[M, O]) collect() {
	lanes := make(chan struct{}, g.lanes)
	for {
		lanes <- struct{}{}
		batch := g.take(nil, <-g.queue)
	drain:
		for len(batch) < g.maxBatch {
			select {
			case m := <-g.queue:
				batch = g.take(batch, m)
			default:
				break drain
			}
		}
		if len(batch) == 0 {
			<-lanes
			continue
		}
		go func() {
			defer func() { <-lanes }()
			g.send(batch)
		}()
	}
}

// take adds m to batch unless its request gave it up.
func (g *gatherer[M, O]) take(batch []*gathered[M, O], m *gathered[M, O]) []*gathered[M, O] {
	if m.state.CompareAndSwap(0, 1) {
		return append(batch, m)
	}
	return batch
}

// send runs one batch and answers its items. A batch that PostgreSQL
// aborted whole as a deadlock victim wrote nothing and runs again once.
func (g *gatherer[M, O]) send(batch []*gathered[M, O]) {
	items := make([]M, len(batch))
	for i, m := range batch {
		items[i] = m.item
	}
	ctx, cancel := context.WithTimeout(context.Background(), g.timeout)
	defer cancel()
	t0 := time.Now()
	out, err := g.run(ctx, items)
	if isDeadlock(err) {
		out, err = g.run(ctx, items)
	}
	if g.sent != nil {
		g.sent(len(items), time.Since(t0))
	}
	for i, m := range batch {
		if err != nil {
			m.done <- g.failed(err)
			continue
		}
		m.done <- out[i]
	}
}
