package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"sync"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// A group commit's lane sends its batches one after the other, so it keeps
// a connection of its own instead of taking one from the pool for each
// batch. Measured on the hot-account row (docs/performance.md), a lane that
// took pooled connections ran its batches on whichever backend came free:
// each of them compiled the batch functions and planned their statements
// on its first batch, and again on its first batch after every ANALYZE,
// and a batch that met such a backend took 20–130 ms instead of 5–8. The
// lane's own connection pays that once.

// laneConns holds one connection for each lane of a group commit, opened
// at a lane's first batch.
type laneConns struct {
	d    *sqlx.DB
	free chan *laneConn
}

// laneConn is a lane's connection and the statements prepared on it.
type laneConn struct {
	*sqlx.Conn
	stmts map[string]*sqlx.Stmt
}

// laneSets maps every laneConns to its pool, so that Close closes its
// connections with the pool.
var laneSets sync.Map // *laneConns → *sqlx.DB

// newLaneConns makes the connections of lanes lanes on d.
func newLaneConns(d *sqlx.DB, lanes int) *laneConns {
	l := &laneConns{d: d, free: make(chan *laneConn, max(lanes, 1))}
	for range cap(l.free) {
		l.free <- &laneConn{}
	}
	laneSets.Store(l, d)
	return l
}

// with runs fn on a lane's connection, opening it first when the lane has
// none. After any error but PostgreSQL's answer to a statement (which
// leaves the connection as it was: each batch commits on its own), the
// connection is closed and the lane's next batch opens another: a broken
// connection, a cancelled statement or a server gone never reach a second
// batch. An error the driver marks as sent nowhere (driver.ErrBadConn: a
// connection found dead before its statement left, as after a restart of
// PostgreSQL, which database/sql reports as sql.ErrConnDone once it has
// closed the connection) runs fn once more on a new connection, as
// database/sql does for a pool. Running a batch again is safe whatever it
// had done: each member is found by its own ids.
func (l *laneConns) with(ctx context.Context, fn func(*laneConn) error) error {
	var c *laneConn
	select {
	case c = <-l.free:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { l.free <- c }()
	for again := true; ; again = false {
		if c.Conn == nil {
			conn, err := l.d.Connx(ctx)
			if err != nil {
				return err
			}
			c.Conn, c.stmts = conn, map[string]*sqlx.Stmt{}
		}
		err := fn(c)
		var pqErr *pq.Error
		if err == nil || errors.As(err, &pqErr) && !pqErr.Fatal() {
			return err
		}
		c.drop()
		if !again || !errors.Is(err, driver.ErrBadConn) && !errors.Is(err, sql.ErrConnDone) {
			return err
		}
	}
}

// warm opens every lane's connection and runs call on it. PostgreSQL
// compiles a plpgsql function and plans its statements on each backend at
// their first call: on the machine's hot-account row a lane's first batch
// took 236 ms where the next took 8, with every request of the process
// waiting behind it. Called with an empty batch at a process's start, it
// moves that cost before the first payment. A group whose batches a test
// runs itself has no lanes (l is nil): nothing to warm.
func (l *laneConns) warm(ctx context.Context, call func(*laneConn) error) error {
	if l == nil {
		return nil
	}
	// The free list is first in, first out: each turn takes the lane the
	// one before it did not.
	for range cap(l.free) {
		if err := l.with(ctx, call); err != nil {
			return err
		}
	}
	return nil
}

// prepared returns query prepared on c, preparing it the first time.
func (c *laneConn) prepared(ctx context.Context, query string) (*sqlx.Stmt, error) {
	if s, ok := c.stmts[query]; ok {
		return s, nil
	}
	s, err := c.PreparexContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.stmts[query] = s
	return s, nil
}

// drop closes c's statements and its connection, which does not go back
// to the pool: whatever state an unknown error left it in goes with it.
func (c *laneConn) drop() {
	if c.Conn == nil {
		return
	}
	for _, s := range c.stmts {
		s.Close()
	}
	// A function given to Raw that answers driver.ErrBadConn makes
	// database/sql close the driver's connection.
	_ = c.Conn.Raw(func(any) error { return driver.ErrBadConn })
	c.Conn.Close()
	c.Conn, c.stmts = nil, nil
}

// closeLanes closes the lanes' connections on d: the lanes' batches have
// ended (d is closing).
func closeLanes(d *sqlx.DB) {
	laneSets.Range(func(k, v any) bool {
		if v.(*sqlx.DB) != d {
			return true
		}
		l := k.(*laneConns)
		for range cap(l.free) {
			c := <-l.free
			c.drop()
			defer func() { l.free <- c }()
		}
		laneSets.Delete(k)
		return true
	})
}
