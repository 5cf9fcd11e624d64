package db

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
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
	// when 0). A second lane sends the next batch while one commits, but
	// the moves of a hot pair of rows then split into two small batches
	// that wait for each other's locks; one lane lets them gather.
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
	// conns are the lanes' own connections (lane_conn.go).
	conns *laneConns
	// queued, when set, learns that a move entered the queue (tests wait
	// on it instead of polling).
	queued func()
	once   sync.Once
	g      *gatherer[PostedMove, PostedOutcome]
}

// DefaultMaxBatch, DefaultLanes and DefaultBatchTimeout are GroupCommit's
// bounds when its fields are zero.
const (
	DefaultMaxBatch     = 32
	DefaultLanes        = 1
	DefaultBatchTimeout = 30 * time.Second
)

// InsertPosted is db.InsertPosted through the group: the same writes,
// rules and answer, committed with the other moves of its batch.
func (g *GroupCommit) InsertPosted(ctx context.Context, ts []domain.Transaction, p Posting, evs ...NewEvent) (int, error) {
	g.once.Do(g.start)
	m := PostedMove{Records: ts, Posting: p, Events: evs}
	if err := m.prepare(); err != nil {
		return 0, err // this move only: the batch never sees it
	}
	out, err := g.g.do(ctx, m)
	if err != nil {
		return 0, err
	}
	return out.New, out.Err
}

// start makes the group's gatherer.
func (g *GroupCommit) start() {
	run := g.run
	if run == nil {
		g.conns = newLaneConns(g.DB, cmp.Or(g.Lanes, DefaultLanes))
		run = g.postOnLane
	}
	g.g = &gatherer[PostedMove, PostedOutcome]{maxBatch: g.MaxBatch, lanes: g.Lanes, timeout: g.Timeout, run: run,
		failed: func(err error) PostedOutcome { return PostedOutcome{Err: err} }, sent: g.Sent, queued: g.queued}
}

// postOnLane sends moves as one batch on a lane's own connection.
func (g *GroupCommit) postOnLane(ctx context.Context, moves []PostedMove) (out []PostedOutcome, err error) {
	err = g.conns.with(ctx, func(c *laneConn) error {
		out, err = postBatchOn(ctx, g.DB, c, moves)
		return err
	})
	return out, err
}

// Warm opens the lanes' connections and has PostgreSQL compile the batch
// functions on them with an empty batch, which writes nothing (see
// laneConns.warm): for a process's start, before its first move.
func (g *GroupCommit) Warm(ctx context.Context) error {
	g.once.Do(g.start)
	return g.conns.warm(ctx, func(c *laneConn) error {
		var fast []fastRow
		if err := hotSelect(ctx, c, &fast, fastSQL, emptyFastArgs()...); err != nil {
			return fmt.Errorf("db: warm the group commit: %w", err)
		}
		var rows []batchRow
		if err := hotSelect(ctx, c, &rows, postJSONSQL, "[]"); err != nil {
			return fmt.Errorf("db: warm the group commit: %w", err)
		}
		return nil
	})
}

// isDeadlock tells whether PostgreSQL rolled a statement back to break a
// deadlock (or a serialization failure): nothing of it was written.
func isDeadlock(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && (pqErr.Code == "40P01" || pqErr.Code == "40001")
}
