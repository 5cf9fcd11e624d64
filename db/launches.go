package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// Launch is a committed resource whose workflow may not be started yet.
type Launch struct {
	Kind       string `db:"kind"`
	ResourceID string `db:"resource_id"`
	Attempts   int    `db:"attempts"`
}

// InsertLaunch records, in the create's transaction, that the resource's
// workflow must be started; the sweeper takes it after grace. A second
// insert for the same resource (a retried create) writes nothing.
func InsertLaunch(ctx context.Context, tx *sqlx.Tx, kind, resourceID string, grace time.Duration) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO workflow_launches (kind, resource_id, due_at)
		VALUES ($1, $2, now() + make_interval(secs => $3)) ON CONFLICT DO NOTHING`, kind, resourceID, grace.Seconds())
	if err != nil {
		return fmt.Errorf("db: insert launch: %w", err)
	}
	return nil
}

// DeleteLaunch clears an intent once its workflow exists.
func DeleteLaunch(ctx context.Context, q sqlx.ExecerContext, kind, resourceID string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM workflow_launches WHERE kind = $1 AND resource_id = $2`, kind, resourceID); err != nil {
		return fmt.Errorf("db: delete launch: %w", err)
	}
	return nil
}

// LaunchKey names one workflow intent.
type LaunchKey struct {
	Kind, ResourceID string
}

// DeleteLaunches clears many intents in one statement.
func DeleteLaunches(ctx context.Context, q sqlx.ExecerContext, keys []LaunchKey) error {
	kinds, ids := make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		kinds[i], ids[i] = k.Kind, k.ResourceID
	}
	_, err := q.ExecContext(ctx, `DELETE FROM workflow_launches l USING unnest($1::text[], $2::text[]) AS k(kind, id)
		WHERE l.kind = k.kind AND l.resource_id = k.id`, stringArray(kinds), stringArray(ids))
	if err != nil {
		return fmt.Errorf("db: delete launches: %w", err)
	}
	return nil
}

// ClaimLaunches leases up to limit due intents for lease: they are not due
// again until it ends, so sweepers in several workers share the table
// without taking the same intent, and no transaction stays open while the
// claimer calls Temporal.
func ClaimLaunches(ctx context.Context, q sqlx.QueryerContext, lease time.Duration, limit int) ([]Launch, error) {
	var ls []Launch
	err := sqlx.SelectContext(ctx, q, &ls, `UPDATE workflow_launches l
		SET due_at = now() + make_interval(secs => $1), attempts = l.attempts + 1
		FROM (SELECT kind, resource_id FROM workflow_launches WHERE due_at <= now()
		      ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED) due
		WHERE l.kind = due.kind AND l.resource_id = due.resource_id
		RETURNING l.kind, l.resource_id, l.attempts`, lease.Seconds(), limit)
	if err != nil {
		return nil, fmt.Errorf("db: claim launches: %w", err)
	}
	return ls, nil
}

// FailLaunch records why a claimed intent could not be started (shown to
// operators; the lease already set when it is tried again).
func FailLaunch(ctx context.Context, q sqlx.ExecerContext, kind, resourceID, reason string) error {
	if _, err := q.ExecContext(ctx, `UPDATE workflow_launches SET last_error = $3 WHERE kind = $1 AND resource_id = $2`,
		kind, resourceID, reason); err != nil {
		return fmt.Errorf("db: fail launch: %w", err)
	}
	return nil
}

// DeferLaunches makes claimed intents due again after a delay shorter than
// their lease (a sweep that could not start them lets the next sweeps try).
func DeferLaunches(ctx context.Context, q sqlx.ExecerContext, ls []Launch, after time.Duration) error {
	kinds, ids := make([]string, len(ls)), make([]string, len(ls))
	for i, l := range ls {
		kinds[i], ids[i] = l.Kind, l.ResourceID
	}
	if _, err := q.ExecContext(ctx, `UPDATE workflow_launches l SET due_at = now() + make_interval(secs => $3)
		FROM unnest($1::text[], $2::text[]) AS d(kind, resource_id)
		WHERE l.kind = d.kind AND l.resource_id = d.resource_id`,
		stringArray(kinds), stringArray(ids), after.Seconds()); err != nil {
		return fmt.Errorf("db: defer launches: %w", err)
	}
	return nil
}

// PendingLaunches counts the intents not yet started (a readiness and
// soak-test figure).
func PendingLaunches(ctx context.Context, q sqlx.QueryerContext) (int, error) {
	var n int
	if err := sqlx.GetContext(ctx, q, &n, `SELECT count(*) FROM workflow_launches`); err != nil {
		return 0, fmt.Errorf("db: count launches: %w", err)
	}
	return n, nil
}
