package db

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
)

// AccountEvents is the account's events of the resources ids, in order.
func AccountEvents(ctx context.Context, q sqlx.QueryerContext, accountID string, ids []string) ([]domain.Event, error) {
	var evs []domain.Event
	if err := sqlx.SelectContext(ctx, q, &evs, `SELECT id, seq, account_id, api_key_id, type, resource_id, data, created_at
		FROM events WHERE account_id = $1 AND resource_id = ANY($2) ORDER BY seq`, accountID, pq.StringArray(ids)); err != nil {
		return nil, fmt.Errorf("db: account events: %w", err)
	}
	return evs, nil
}

// DeliveriesOfEvents is every delivery of the events, to any endpoint,
// each with its attempts.
func DeliveriesOfEvents(ctx context.Context, q sqlx.QueryerContext, eventIDs []string) ([]Delivery, error) {
	var ds []Delivery
	if err := sqlx.SelectContext(ctx, q, &ds, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE event_id = ANY($1) ORDER BY created_at, id`, pq.StringArray(eventIDs)); err != nil {
		return nil, fmt.Errorf("db: deliveries of events: %w", err)
	}
	return ds, attachAttempts(ctx, q, ds)
}
