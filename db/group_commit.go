package db

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
)

// GroupCommit gathers the moves that requests of one process post at the
// same time into one statement and one commit (ledger_post_batch), each
// still judged alone. It adds no wait of its own: while a batch is in
// flight on every lane, the moves that arrive queue, and the next free
// lane takes all of them (at most MaxBatch) as its batch. Under light load
// a move goes alone at once; under load many moves share one round trip,
// one lock hold of the balance rows they name and one WAL flush, which is
// what bounds the moves on a hot balance row.
type GroupCommit struct {
	DB *sqlx.DB
	// MaxBatch bounds a batch (DefaultMaxBatch when 0): each member is a
	// subtransaction, and PostgreSQL keeps 64 of them per transaction in
	// shared memory before it spills.
	MaxBatch int
	// Lanes is how many batches may be in flight at once (DefaultLanes
	// when 0): while one commits, the next is sent and waits for its locks.
	Lanes int
	// Timeout bounds one batch's statement (DefaultBatchTimeout when 0).
	// It is not a request's deadline: a move taken into a batch is
	// answered with what the batch did, so a request never reports a
	// failure for a move that committed.
	Timeout time.Duration
	// Sent, when set, learns each batch's size and how long its statement
	// took (the process's metrics).
	Sent func(size int, took time.Duration)

	run func(context.Context, []PostedMove) ([]PostedOutcome, error)
	// queued, when set, learns that a move entered the queue (tests wait
	// on it instead of polling).
	queued func()
	once   sync.Once
	queue  chan *groupMove
}

// DefaultMaxBatch, DefaultLanes and DefaultBatchTimeout are GroupCommit's
// bounds when its fields are zero.
const (
	DefaultMaxBatch     = 32
	DefaultLanes        = 2
	DefaultBatchTimeout = 30 * time.Second
)

// groupMove is one request's move waiting for its batch.
type groupMove struct {
	move PostedMove
	// state is queued (0), taken into a batch (1) or given up by its
	// request before a batch took it (2).
	state atomic.Int32
	done  chan PostedOutcome
}

// InsertPosted is db.InsertPosted through the group: the same writes,
// rules and answer, committed with the other moves of its batch.
func (g *GroupCommit) InsertPosted(ctx context.Context, ts []domain.Transaction, p Posting, evs ...NewEvent) (int, error) {
	g.once.Do(g.start)
	m := &groupMove{move: PostedMove{Records: ts, Posting: p, Events: evs}, done: make(chan PostedOutcome, 1)}
	select {
	case g.queue <- m:
		if g.queued != nil {
			g.queued()
		}
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	select {
	case out := <-m.done:
		return out.New, out.Err
	case <-ctx.Done():
		if m.state.CompareAndSwap(0, 2) {
			return 0, ctx.Err() // no batch took it: nothing was written
		}
		out := <-m.done // taken: its answer is what the batch did
		return out.New, out.Err
	}
}

// start opens the queue and its collector.
func (g *GroupCommit) start() {
	if g.MaxBatch <= 0 {
		g.MaxBatch = DefaultMaxBatch
	}
	if g.Lanes <= 0 {
		g.Lanes = DefaultLanes
	}
	if g.Timeout <= 0 {
		g.Timeout = DefaultBatchTimeout
	}
	if g.run == nil {
		g.run = func(ctx context.Context, moves []PostedMove) ([]PostedOutcome, error) {
			return postBatch(ctx, g.DB, moves)
		}
	}
	g.queue = make(chan *groupMove, 4*g.MaxBatch)
	go g.collect()
}

// collect waits for a free lane, then for a first move, then takes every
// move already queued (at most MaxBatch) and sends them as one batch.
func (g *GroupCommit) collect() {
	lanes := make(chan struct{}, g.Lanes)
	for {
		lanes <- struct{}{}
		batch := g.take(nil, <-g.queue)
	drain:
		for len(batch) < g.MaxBatch {
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
func (g *GroupCommit) take(batch []*groupMove, m *groupMove) []*groupMove {
	if m.state.CompareAndSwap(0, 1) {
		return append(batch, m)
	}
	return batch
}

// send runs one batch and answers its moves. A batch that PostgreSQL
// aborted whole as a deadlock victim wrote nothing and runs again once.
func (g *GroupCommit) send(batch []*groupMove) {
	moves := make([]PostedMove, len(batch))
	for i, m := range batch {
		moves[i] = m.move
	}
	ctx, cancel := context.WithTimeout(context.Background(), g.Timeout)
	defer cancel()
	t0 := time.Now()
	out, err := g.run(ctx, moves)
	if isDeadlock(err) {
		out, err = g.run(ctx, moves)
	}
	if g.Sent != nil {
		g.Sent(len(moves), time.Since(t0))
	}
	for i, m := range batch {
		if err != nil {
			m.done <- PostedOutcome{Err: err}
			continue
		}
		m.done <- out[i]
	}
}

// isDeadlock tells whether PostgreSQL rolled a statement back to break a
// deadlock (or a serialization failure): nothing of it was written.
func isDeadlock(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && (pqErr.Code == "40P01" || pqErr.Code == "40001")
}
