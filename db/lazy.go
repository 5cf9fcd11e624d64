package db

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// Lazy lets tx commit without waiting for its WAL to reach the disk
// (synchronous_commit off, for this transaction only). It is for
// housekeeping whose loss in a PostgreSQL crash the system repairs by
// itself, never for money, events or anything a workflow reads: a lost
// "event dispatched" mark makes the dispatcher dispatch the event again,
// which finds its deliveries and their workflows already there; a lost
// intent clear makes the sweeper find the workflow started and clear it
// again. The commit's fsync is what these writes would otherwise cost,
// and on a busy disk it delays every other commit queued behind it,
// Temporal's included.
func Lazy(ctx context.Context, tx *sqlx.Tx) error {
	if _, err := tx.ExecContext(ctx, `SET LOCAL synchronous_commit TO OFF`); err != nil {
		return fmt.Errorf("db: lazy commit: %w", err)
	}
	return nil
}
