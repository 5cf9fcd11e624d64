package db

import (
	"context"
	"sync"

	"github.com/jmoiron/sqlx"
)

// The statements every request runs are prepared once per pool and kept.
// An unprepared statement is parsed and planned by PostgreSQL on every
// execution, and for these planning costs more than running: the key
// lookup spent 0.19 ms planning and 0.04 ms executing, and its backend CPU
// per call fell from 250–340 µs to 53 µs once prepared (a probe on one
// connection, reading the backend's CPU from /proc). PostgreSQL switches a
// prepared statement to its generic plan after five executions, so a hot
// statement is then only bound and run.
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

// hotGet is sqlx.GetContext with query prepared when q is a pool; in a
// transaction it runs unprepared.
func hotGet(ctx context.Context, q sqlx.QueryerContext, dest any, query string, args ...any) error {
	d, ok := q.(*sqlx.DB)
	if !ok {
		return sqlx.GetContext(ctx, q, dest, query, args...)
	}
	s, err := prepared(ctx, d, query)
	if err != nil {
		return err
	}
	return s.GetContext(ctx, dest, args...)
}

// hotSelect is sqlx.SelectContext with query prepared when q is a pool.
func hotSelect(ctx context.Context, q sqlx.QueryerContext, dest any, query string, args ...any) error {
	d, ok := q.(*sqlx.DB)
	if !ok {
		return sqlx.SelectContext(ctx, q, dest, query, args...)
	}
	s, err := prepared(ctx, d, query)
	if err != nil {
		return err
	}
	return s.SelectContext(ctx, dest, args...)
}

// Close closes a pool opened by Open, with its prepared statements.
func Close(d *sqlx.DB) error {
	forgetPrepared(d)
	return d.Close()
}
