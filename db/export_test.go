package db

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain/subaccount"
)

// LockedPart exposes lockedPart to the package's external tests.
var LockedPart = lockedPart

// PostBatch exposes postBatch (one batch of the group commit) to the
// package's external tests.
var PostBatch = postBatch

// ErrDeclined is ledger_post_batch_fast handing a batch back.
var ErrDeclined = errDeclined

// FastSQL calls ledger_post_batch_fast with FastArgs(moves), the moves
// made by BatchJSON first; false when one may not take the fast path.
const FastSQL = fastSQL

// FastArgs and HandedBack expose fastArgs and handedBack to the package's
// external tests.
var (
	FastArgs   = fastArgs
	HandedBack = handedBack
)

// PostFast sends moves through ledger_post_batch_fast alone.
func PostFast(ctx context.Context, d *sqlx.DB, moves []PostedMove) ([]PostedOutcome, error) {
	if _, _, err := batchOf(moves); err != nil {
		return nil, err
	}
	return postFast(ctx, d, d, moves)
}

// PostJSON sends moves through ledger_post_batch alone, as postBatch does
// when the fast path declines them.
func PostJSON(ctx context.Context, d *sqlx.DB, moves []PostedMove) ([]PostedOutcome, error) {
	raw, accounts, err := batchOf(moves)
	if err != nil {
		return nil, err
	}
	return postJSON(ctx, d, d, moves, raw, accounts)
}

// BatchJSON is moves as ledger_post_batch and its two paths read them.
func BatchJSON(moves []PostedMove) (string, error) {
	raw, _, err := batchOf(moves)
	return raw, err
}

// HoldBatches makes g's batches wait for release before they run (and
// counts their sizes), so a test can have moves queue behind one batch.
func HoldBatches(g *GroupCommit, release <-chan struct{}, sizes chan<- int) {
	g.run = func(ctx context.Context, moves []PostedMove) ([]PostedOutcome, error) {
		sizes <- len(moves)
		<-release
		return postBatch(ctx, g.DB, moves)
	}
}

// Queued is how many moves wait in g's queue.
func Queued(g *GroupCommit) int {
	if g.g == nil {
		return 0
	}
	return len(g.g.queue)
}

// SignalQueued makes g send on the channel it returns each time a move
// enters its queue.
func SignalQueued(g *GroupCommit, capacity int) <-chan struct{} {
	ch := make(chan struct{}, capacity)
	g.queued = func() { ch <- struct{}{} }
	return ch
}

// LookSubaccountMove runs subaccount_move_look alone (the reads
// MoveSubaccount makes before its checks) in tx, so a test can hold its
// locks and watch what a concurrent reader sees: an earlier move of type
// typ with externalReference ref, or the account's live sub-accounts ids
// locked in id order, each with its debits of w's day and month when it is
// in out and has that limit. A sub-account missing is a 404 naming its
// field.
func LookSubaccountMove(ctx context.Context, tx *sqlx.Tx, accountID string, fields, ids, out []string,
	ref, typ string, w subaccount.Window) (MoveLook, error) {
	var rows []moveLookRow
	if err := hotSelect(ctx, tx, &rows, `SELECT * FROM subaccount_move_look($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		accountID, stringArray(ids), stringArray(out), ref, typ, stringArray(SubaccountDebitTypes), stringArray(reservedStatuses),
		w.DayStart, w.DayEnd, w.MonthStart, w.MonthEnd); err != nil {
		return MoveLook{}, fmt.Errorf("db: look sub-account move: %w", err)
	}
	return lookOf(rows, accountID, fields, ids)
}

// MoveSubaccounts runs moves as one sub-account batch: the fast path, or
// subaccount_move_batch when it hands them back.
func MoveSubaccounts(ctx context.Context, d *sqlx.DB, moves []SubaccountMove) ([]SubaccountOutcome, error) {
	return moveSubaccounts(ctx, d, d, moves)
}

// MoveSubaccountsFast runs moves through subaccount_move_batch_fast alone:
// ErrDeclined when it hands them back.
func MoveSubaccountsFast(ctx context.Context, d *sqlx.DB, moves []SubaccountMove) ([]SubaccountOutcome, error) {
	for i := range moves {
		if err := moves[i].Move.prepare(); err != nil {
			return nil, err
		}
	}
	return moveSubaccountsFast(ctx, d, d, moves)
}

// HoldSubaccountBatches makes g hold each batch until release is closed
// (and tell its size on sizes), and signal on the channel it returns each
// time a move enters its queue.
func HoldSubaccountBatches(g *SubaccountGroup, release <-chan struct{}, sizes chan<- int, capacity int) <-chan struct{} {
	ch := make(chan struct{}, capacity)
	g.queued = func() { ch <- struct{}{} }
	g.run = func(ctx context.Context, moves []SubaccountMove) ([]SubaccountOutcome, error) {
		sizes <- len(moves)
		<-release
		return moveSubaccounts(ctx, g.DB, g.DB, moves)
	}
	return ch
}

// LaneSet is the connections of a group commit's lanes, for tests.
type LaneSet struct{ l *laneConns }

// NewLaneSet makes the connections of lanes lanes on d.
func NewLaneSet(d *sqlx.DB, lanes int) LaneSet { return LaneSet{newLaneConns(d, lanes)} }

// Run runs query on a lane's connection and answers the backend's pid.
func (s LaneSet) Run(ctx context.Context, query string) (pid int, err error) {
	err = s.l.with(ctx, func(c *laneConn) error {
		if err := c.GetContext(ctx, &pid, `SELECT pg_backend_pid()`); err != nil {
			return err
		}
		var one int
		return hotGet(ctx, c, &one, query)
	})
	return pid, err
}

// LanePrepared is the statements prepared on the connection of the lane
// of g (a *GroupCommit or a *SubaccountGroup) that the next batch takes,
// with its backend's pid, as that backend lists them (g is started, and
// its lane's connection opened, when they were not).
func LanePrepared(ctx context.Context, g any) (pid int, statements []string, err error) {
	var l *laneConns
	switch g := g.(type) {
	case *GroupCommit:
		g.once.Do(g.start)
		l = g.conns
	case *SubaccountGroup:
		g.once.Do(g.start)
		l = g.conns
	}
	err = l.with(ctx, func(c *laneConn) error {
		if err := c.GetContext(ctx, &pid, `SELECT pg_backend_pid()`); err != nil {
			return err
		}
		return c.SelectContext(ctx, &statements, `SELECT statement FROM pg_prepared_statements ORDER BY statement`)
	})
	return pid, statements, err
}

// LanePost sends moves as one batch of g on its lane's own connection, as
// g's gatherer does.
func LanePost(ctx context.Context, g *GroupCommit, moves []PostedMove) ([]PostedOutcome, error) {
	g.once.Do(g.start)
	return g.postOnLane(ctx, moves)
}

// Prepare makes m's members as a request's goroutine does before it queues.
func Prepare(m *PostedMove) error { return m.prepare() }
