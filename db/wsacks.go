package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

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
	// Only acks of real events are kept: a client cannot grow the table
	// with made-up ids (its size is bounded by events × keys, and
	// PurgeWSAcks bounds it in time).
	_, err := d.ExecContext(ctx, `INSERT INTO ws_acks (event_id, api_key_id)
		SELECT a.e, a.k FROM unnest($1::text[], $2::text[]) AS a(e, k) JOIN events ev ON ev.id = a.e
		ON CONFLICT DO NOTHING`, pq.StringArray(evs), pq.StringArray(keys))
	if err != nil {
		return fmt.Errorf("db: ws acks: %w", err)
	}
	return nil
}

// WSAckRetention is how long WebSocket acknowledgements are kept.
const WSAckRetention = 30 * 24 * time.Hour

// PurgeWSAcks deletes acknowledgements older than WSAckRetention.
func PurgeWSAcks(ctx context.Context, d *sqlx.DB) (int64, error) {
	res, err := d.ExecContext(ctx, `DELETE FROM ws_acks WHERE acked_at < now() - $1 * interval '1 second'`, WSAckRetention.Seconds())
	if err != nil {
		return 0, fmt.Errorf("db: purge ws acks: %w", err)
	}
	return res.RowsAffected()
}
