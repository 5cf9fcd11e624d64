package db

import (
	"context"
	"database/sql"
	"log/slog"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
)

// The statements every request runs are prepared once per pool and kept:
// for these, PostgreSQL's planning costs more than running them
// (docs/performance.md, item 17, has the measurements). After five
// executions a prepared statement takes its generic plan and is only bound
// and run.
//
// Only statements with a fixed text go through here (the cache is keyed by
// it and never shrinks); one built per call, like a list filter, does not.
// database/sql prepares the statement on each pool connection the first
// time that connection runs it, and again after a reconnect.
//
// Behind a connection pooler in transaction mode, named prepared statements
// need PgBouncer 1.21 or later with max_prepared_statements set
// (docs/performance.md).

// stmtKey names one prepared statement: its pool and its text.
type stmtKey struct {
	d     *sqlx.DB
	query string
}

// stmts holds every prepared statement (stmtKey → *sqlx.Stmt).
var stmts sync.Map

// prepared returns query prepared on d, preparing it the first time.
func prepared(ctx context.Context, d *sqlx.DB, query string) (*sqlx.Stmt, error) {
	k := stmtKey{d, query}
	if s, ok := stmts.Load(k); ok {
		return s.(*sqlx.Stmt), nil
	}
	s, err := d.PreparexContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := stmts.LoadOrStore(k, s); loaded { // another caller won the race
		s.Close()
		return prev.(*sqlx.Stmt), nil
	}
	return s, nil
}

// forgetPrepared closes and drops d's prepared statements: on Close, so
// that a closed pool (a test's database) leaves nothing behind.
func forgetPrepared(d *sqlx.DB) {
	stmts.Range(func(k, v any) bool {
		if k.(stmtKey).d == d {
			v.(*sqlx.Stmt).Close()
			stmts.Delete(k)
		}
		return true
	})
}

// txPools maps each transaction InTx runs to its pool, so that a hot
// statement inside it runs prepared too (*sqlx.Tx does not know its pool).
var txPools sync.Map // *sqlx.Tx → *sqlx.DB

// hotStmt is query prepared for q when q is a pool, a group commit lane's
// connection or a transaction of InTx's; done releases a transaction's
// handle on it. ok is false when q runs query unprepared this time.
func hotStmt(ctx context.Context, q any, query string) (s *sqlx.Stmt, done func(), ok bool, err error) {
	switch q := q.(type) {
	case *sqlx.DB:
		s, err = prepared(ctx, q, query)
		return s, func() {}, true, err
	case *laneConn:
		s, err = q.prepared(ctx, query)
		return s, func() {}, true, err
	case *sqlx.Tx:
		d, found := txPools.Load(q)
		if !found {
			return nil, nil, false, nil
		}
		v, found := stmts.Load(stmtKey{d.(*sqlx.DB), query})
		if !found {
			// Preparing on the pool needs a free connection, which a
			// transaction must never wait for: with every connection held
			// by a transaction doing the same, none would come. This one
			// runs unprepared, and the statement is prepared beside it.
			prepareSoon(d.(*sqlx.DB), query)
			return nil, nil, false, nil
		}
		// Reuses the statement where the transaction's connection already
		// has it prepared, and prepares it there (once) otherwise.
		ts := q.StmtxContext(ctx, v.(*sqlx.Stmt))
		return ts, func() { ts.Close() }, true, nil
	}
	return nil, nil, false, nil
}

// preparing holds the statements being prepared by prepareSoon.
var preparing sync.Map // stmtKey → struct{}

// prepareSoon prepares query on d in the background, once at a time.
func prepareSoon(d *sqlx.DB, query string) {
	k := stmtKey{d, query}
	if _, busy := preparing.LoadOrStore(k, struct{}{}); busy {
		return
	}
	go func() {
		defer preparing.Delete(k)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := prepared(ctx, d, query); err != nil {
			slog.Debug("prepare a hot statement (it runs unprepared meanwhile)", "error", err)
		}
	}()
}

// onHot runs query through run, prepared, when hotStmt can prepare it for
// q, and through plain otherwise.
func onHot(ctx context.Context, q any, query string, plain func() error, run func(*sqlx.Stmt) error) error {
	s, done, ok, err := hotStmt(ctx, q, query)
	if !ok {
		return plain()
	}
	if err != nil {
		return err
	}
	defer done()
	return run(s)
}

// hotGet is sqlx.GetContext with query prepared (see hotStmt).
func hotGet(ctx context.Context, q sqlx.QueryerContext, dest any, query string, args ...any) error {
	return onHot(ctx, q, query, func() error { return sqlx.GetContext(ctx, q, dest, query, args...) },
		func(s *sqlx.Stmt) error { return s.GetContext(ctx, dest, args...) })
}

// hotSelect is sqlx.SelectContext with query prepared (see hotStmt).
func hotSelect(ctx context.Context, q sqlx.QueryerContext, dest any, query string, args ...any) error {
	return onHot(ctx, q, query, func() error { return sqlx.SelectContext(ctx, q, dest, query, args...) },
		func(s *sqlx.Stmt) error { return s.SelectContext(ctx, dest, args...) })
}

// hotExec is ExecContext with query prepared (see hotStmt).
func hotExec(ctx context.Context, q sqlx.ExecerContext, query string, args ...any) (res sql.Result, err error) {
	err = onHot(ctx, q, query, func() error { res, err = q.ExecContext(ctx, query, args...); return err },
		func(s *sqlx.Stmt) error { res, err = s.ExecContext(ctx, args...); return err })
	return res, err
}

// Close closes a pool opened by Open, with its prepared statements and the
// connections its group commits' lanes hold.
func Close(d *sqlx.DB) error {
	closeLanes(d)
	forgetPrepared(d)
	return d.Close()
}
