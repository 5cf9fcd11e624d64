package db

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
)

// EventsChannel is the NOTIFY channel the events trigger signals at commit.
const EventsChannel = "jangada_events"

// KeysRevokedChannel is the NOTIFY channel that carries revoked key ids.
const KeysRevokedChannel = "jangada_keys_revoked"

const eventColumns = `id, seq, account_id, api_key_id, type, resource_id, data, created_at`

// NotifyEvents sends one NOTIFY on EventsChannel carrying origin, in a
// statement of its own (see dispatch.Notifier).
func NotifyEvents(ctx context.Context, d *sqlx.DB, origin string) error {
	_, err := hotExec(ctx, d, `SELECT pg_notify($1, $2)`, EventsChannel, origin)
	return err
}

// ClaimedEvent is an event the dispatcher claimed, without its data, with
// whether any webhook delivery of it exists already (a dispatch that died
// after inserting them): only then, or when it routes new ones, does the
// dispatcher look for deliveries still to start.
type ClaimedEvent struct {
	domain.Event
	HasDeliveries bool `db:"has_deliveries"`
}

// claimSQL is ClaimUndispatched's statement. The queue's rows lead, each
// event looked up by its seq (the LIMIT keeps the planner from joining
// the queue with the whole events table in seq order, which reads every
// event before the oldest one queued). It reads no event's data: routing
// needs only the event's account, key and type, and a delivery reads the
// event it sends. It also makes the claim's
// transaction commit lazily (set_config(…, true) is SET LOCAL; see Lazy)
// in the claim's own statement, a round trip fewer per batch. PostgreSQL
// runs it only when there are events to claim; without any the transaction
// writes nothing, and its commit waits for nothing anyway.
var claimSQL = `WITH q AS MATERIALIZED (
		SELECT seq FROM events_undispatched ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
	SELECT e.id, e.seq, e.account_id, e.api_key_id, e.type, e.resource_id, e.created_at,
		EXISTS (SELECT 1 FROM webhook_deliveries w WHERE w.event_id = e.id) AS has_deliveries
	FROM q CROSS JOIN LATERAL (SELECT * FROM events WHERE events.seq = q.seq LIMIT 1) e,
		(SELECT set_config('synchronous_commit', 'off', true)) lazy
	ORDER BY q.seq`

// ClaimUndispatched locks up to limit events not yet handed to webhook
// delivery, oldest first, and makes tx's commit lazy: tx only marks events
// dispatched (MarkDispatched), and a mark lost in a PostgreSQL crash
// dispatches the events again, which finds the same deliveries and
// workflows. SKIP LOCKED lets several dispatchers share the outbox without
// waiting on each other or taking the same event.
func ClaimUndispatched(ctx context.Context, tx *sqlx.Tx, limit int) ([]ClaimedEvent, error) {
	var out []ClaimedEvent
	if err := hotSelect(ctx, tx, &out, claimSQL, limit); err != nil {
		return nil, fmt.Errorf("db: claim events: %w", err)
	}
	return out, nil
}

// MarkDispatched records that the events' webhook deliveries are started:
// it takes the events off the queue (events_undispatched).
func MarkDispatched(ctx context.Context, tx *sqlx.Tx, seqs []int64) error {
	if len(seqs) == 0 {
		return nil
	}
	if _, err := hotExec(ctx, tx, `DELETE FROM events_undispatched WHERE seq = ANY($1)`, pq.Int64Array(seqs)); err != nil {
		return fmt.Errorf("db: mark dispatched: %w", err)
	}
	return nil
}

// TailStart is where a new tail begins: the highest committed seq, and the
// seqs missing below it in the last window ones (transactions still in
// flight, or rolled back), which the tail watches for a while.
func TailStart(ctx context.Context, q sqlx.QueryerContext, window int64) (last int64, missing []int64, err error) {
	if err = sqlx.GetContext(ctx, q, &last, `SELECT COALESCE(max(seq), 0) FROM events`); err != nil {
		return 0, nil, fmt.Errorf("db: tail start: %w", err)
	}
	err = sqlx.SelectContext(ctx, q, &missing, `SELECT s FROM generate_series(GREATEST($1::bigint - $2::bigint + 1, 1), $1::bigint) AS s
		WHERE NOT EXISTS (SELECT 1 FROM events WHERE seq = s)`, last, window)
	if err != nil {
		return 0, nil, fmt.Errorf("db: tail start gaps: %w", err)
	}
	return last, missing, nil
}

// EventsAfterSeq reads up to limit committed events after seq, in seq order.
func EventsAfterSeq(ctx context.Context, q sqlx.QueryerContext, after int64, limit int) ([]domain.Event, error) {
	var evs []domain.Event
	err := hotSelect(ctx, q, &evs, `SELECT `+eventColumns+` FROM events WHERE seq > $1 ORDER BY seq LIMIT $2`, after, limit)
	if err != nil {
		return nil, fmt.Errorf("db: tail events: %w", err)
	}
	return evs, nil
}

// EventsBySeq reads the committed events among seqs, in seq order.
func EventsBySeq(ctx context.Context, q sqlx.QueryerContext, seqs []int64) ([]domain.Event, error) {
	var evs []domain.Event
	err := sqlx.SelectContext(ctx, q, &evs, `SELECT `+eventColumns+` FROM events WHERE seq = ANY($1) ORDER BY seq`, pq.Int64Array(seqs))
	if err != nil {
		return nil, fmt.Errorf("db: tail gaps: %w", err)
	}
	return evs, nil
}
