//go:build devserver

package main

import (
	"context"
	"net/url"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The bare PostgreSQL baselines are the best a client does, not what our
// driver makes easy: pgx, its statements prepared (the pool's connections
// cache them), and one transaction's statements sent as one batch — one
// round trip, one implicit transaction that commits or rolls back whole
// (the extended protocol's pipeline up to its one Sync) — with the locks
// taken by the updates themselves, in id order.

// barePool opens a pgx pool on the rig's database, sized for the phases'
// concurrency.
func (r *rig) barePool(ctx context.Context) (*pgxpool.Pool, error) {
	u, err := url.Parse(r.adminURL)
	if err != nil {
		return nil, err
	}
	u.Path = "/" + r.dbName
	cfg, err := pgxpool.ParseConfig(u.String())
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = 32
	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheStatement
	return pgxpool.NewWithConfig(ctx, cfg)
}

// bareStatement is one statement of a bare transaction.
type bareStatement struct {
	q    string
	args []any
}

// bareBatch runs the statements as one transaction in one round trip.
func bareBatch(ctx context.Context, p *pgxpool.Pool, stmts ...bareStatement) error {
	b := &pgx.Batch{}
	for _, s := range stmts {
		b.Queue(s.q, s.args...)
	}
	return p.SendBatch(ctx, b).Close()
}
