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

// ClaimUndispatched locks up to limit events not yet handed to webhook
// delivery, oldest first. SKIP LOCKED lets several dispatchers share the
// outbox without waiting on each other or taking the same event.
func ClaimUndispatched(ctx context.Context, tx *sqlx.Tx, limit int) ([]domain.Event, error) {
	var evs []domain.Event
	err := tx.SelectContext(ctx, &evs, `SELECT `+eventColumns+` FROM events
		WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR NO KEY UPDATE SKIP LOCKED`, limit)
	if err != nil {
		return nil, fmt.Errorf("db: claim events: %w", err)
	}
	return evs, nil
}

// MarkDispatched records that the events' webhook deliveries are started.
func MarkDispatched(ctx context.Context, tx *sqlx.Tx, seqs []int64) error {
	if len(seqs) == 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, `UPDATE events SET dispatched_at = now() WHERE seq = ANY($1)`, pq.Int64Array(seqs))
	if err != nil {
		return fmt.Errorf("db: mark dispatched: %w", err)
	}
	return nil
}

// Cursor is a position in the outbox in (txid, seq) order.
type Cursor struct {
	TxID uint64
	Seq  int64
}

// TailStart is the position from which a new tail reads: every transaction
// still running now, and every later one, is after it.
func TailStart(ctx context.Context, q sqlx.QueryerContext) (Cursor, error) {
	var xmin uint64
	if err := sqlx.GetContext(ctx, q, &xmin, `SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint`); err != nil {
		return Cursor{}, fmt.Errorf("db: tail start: %w", err)
	}
	return Cursor{TxID: xmin, Seq: 0}, nil
}

// EventsAfter reads up to limit committed events after c, in (txid, seq)
// order, stopping below the oldest running transaction: an event whose
// transaction commits later can only land after the returned cursor. held
// reports committed events past that horizon, waiting for an older
// transaction to end.
func EventsAfter(ctx context.Context, q sqlx.QueryerContext, c Cursor, limit int) (evs []domain.Event, next Cursor, held bool, err error) {
	var rows []struct {
		domain.Event
		TxID uint64 `db:"txid"`
	}
	err = sqlx.SelectContext(ctx, q, &rows, `SELECT `+eventColumns+`, txid::text::bigint AS txid FROM events
		WHERE (txid, seq) > ($1::text::xid8, $2) AND txid < pg_snapshot_xmin(pg_current_snapshot())
		ORDER BY txid, seq LIMIT $3`, fmt.Sprint(c.TxID), c.Seq, limit)
	if err != nil {
		return nil, c, false, fmt.Errorf("db: tail events: %w", err)
	}
	evs = make([]domain.Event, len(rows))
	for i, r := range rows {
		evs[i] = r.Event
		c = Cursor{TxID: r.TxID, Seq: r.Seq}
	}
	if len(rows) < limit {
		err = sqlx.GetContext(ctx, q, &held, `SELECT EXISTS (SELECT 1 FROM events WHERE (txid, seq) > ($1::text::xid8, $2))`,
			fmt.Sprint(c.TxID), c.Seq)
		if err != nil {
			return evs, c, false, fmt.Errorf("db: tail horizon: %w", err)
		}
	}
	return evs, c, held, nil
}

// RevokedKeyIDs returns which of the keys are revoked: the WebSocket
// gateway's periodic re-check, behind the revocation NOTIFY.
func RevokedKeyIDs(ctx context.Context, q sqlx.QueryerContext, ids []string) ([]string, error) {
	var out []string
	err := sqlx.SelectContext(ctx, q, &out, `SELECT id FROM api_keys WHERE id = ANY($1) AND revoked_at IS NOT NULL`, pq.StringArray(ids))
	if err != nil {
		return nil, fmt.Errorf("db: revoked keys: %w", err)
	}
	return out, nil
}

// WSAck is one acknowledgement a WebSocket client sent.
type WSAck struct {
	EventID, APIKeyID string
}

// InsertWSAcks records acknowledgements; repeated ones are kept once.
func InsertWSAcks(ctx context.Context, d *sqlx.DB, acks []WSAck) error {
	if len(acks) == 0 {
		return nil
	}
	evs, keys := make([]string, len(acks)), make([]string, len(acks))
	for i, a := range acks {
		evs[i], keys[i] = a.EventID, a.APIKeyID
	}
	_, err := d.ExecContext(ctx, `INSERT INTO ws_acks (event_id, api_key_id)
		SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`, pq.StringArray(evs), pq.StringArray(keys))
	if err != nil {
		return fmt.Errorf("db: ws acks: %w", err)
	}
	return nil
}
