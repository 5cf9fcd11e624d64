package db

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
)

// InsertEvent appends an event to the outbox inside tx, in the same database
// transaction as the change it reports. data is the lean public record.
func InsertEvent(ctx context.Context, tx *sqlx.Tx, accountID string, apiKeyID *string, typ, resourceID string, data any) (domain.Event, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return domain.Event{}, fmt.Errorf("db: event data: %w", err)
	}
	var ev domain.Event
	err = tx.GetContext(ctx, &ev, `
		INSERT INTO events (id, account_id, api_key_id, type, resource_id, data)
		VALUES ($1, $2, $3, $4, $5, $6)
		RETURNING id, seq, account_id, api_key_id, type, resource_id, data, created_at`,
		domain.NewID("evt_"), accountID, apiKeyID, typ, resourceID, string(raw)) // jsonb takes text, not binary
	if err != nil {
		return domain.Event{}, fmt.Errorf("db: insert event: %w", err)
	}
	noteEvent(tx, ev)
	return ev, nil
}

// EventsFor lists a resource's events in order (tests and the admin API use it).
func EventsFor(ctx context.Context, q sqlx.QueryerContext, resourceID string) ([]domain.Event, error) {
	var evs []domain.Event
	err := sqlx.SelectContext(ctx, q, &evs, `
		SELECT id, seq, account_id, api_key_id, type, resource_id, data, created_at
		FROM events WHERE resource_id = $1 ORDER BY seq`, resourceID)
	return evs, err
}
