package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
)

// NewEvent is an event to append to the outbox.
type NewEvent struct {
	AccountID  string
	APIKeyID   *string
	Type       string
	ResourceID string
	// Data is the lean public record.
	Data any
}

// InsertEvent appends an event to the outbox inside tx, in the same database
// transaction as the change it reports. data is the lean public record.
func InsertEvent(ctx context.Context, tx *sqlx.Tx, accountID string, apiKeyID *string, typ, resourceID string, data any) (domain.Event, error) {
	evs, err := InsertEvents(ctx, tx, NewEvent{AccountID: accountID, APIKeyID: apiKeyID, Type: typ, ResourceID: resourceID, Data: data})
	if err != nil {
		return domain.Event{}, err
	}
	return evs[0], nil
}

// InsertEvents appends several events in one statement, in order (the two
// sides of an internal transfer).
func InsertEvents(ctx context.Context, tx *sqlx.Tx, in ...NewEvent) ([]domain.Event, error) {
	args, err := eventArgs(in)
	if err != nil {
		return nil, err
	}
	var evs []domain.Event
	if err := hotSelect(ctx, tx, &evs, insertEventsStmt, args...); err != nil {
		return nil, fmt.Errorf("db: insert event: %w", err)
	}
	for _, ev := range evs {
		noteEvent(tx, ev)
	}
	return evs, nil
}

// insertEventsStmt is InsertEvents' statement, built once.
var insertEventsStmt = insertEventsSQL(1, "") + ` RETURNING ` + eventColumns

// insertEventsSQL appends the events of eventArgs, whose six arrays are
// the parameters from $first on, in their order (their seqs follow it);
// when is a condition that must hold for any to be written ("": none).
func insertEventsSQL(first int, when string) string {
	p := func(i int) string { return "$" + strconv.Itoa(first+i) }
	if when != "" {
		when = " WHERE " + when
	}
	return `INSERT INTO events (id, account_id, api_key_id, type, resource_id, data)
		SELECT id, acct, key, typ, res, d::jsonb
		FROM unnest(` + p(0) + `::text[], ` + p(1) + `::text[], ` + p(2) + `::text[], ` + p(3) + `::text[], ` + p(4) + `::text[], ` + p(5) + `::text[]) WITH ORDINALITY
		     AS u(id, acct, key, typ, res, d, n)` + when + `
		ORDER BY n`
}

// eventArgs are the six arrays insertEventsSQL inserts: a new id for each
// event, and its fields.
func eventArgs(in []NewEvent) ([]any, error) {
	ids, accounts, types, resources, data := make([]string, len(in)), make([]string, len(in)), make([]string, len(in)),
		make([]string, len(in)), make([]string, len(in))
	keys := make([]sql.NullString, len(in))
	for i, e := range in {
		raw, err := json.Marshal(e.Data)
		if err != nil {
			return nil, fmt.Errorf("db: event data: %w", err)
		}
		ids[i], accounts[i], types[i], resources[i], data[i] = domain.NewID("evt_"), e.AccountID, e.Type, e.ResourceID, string(raw)
		if e.APIKeyID != nil {
			keys[i] = sql.NullString{String: *e.APIKeyID, Valid: true}
		}
	}
	return []any{stringArray(ids), stringArray(accounts), pq.Array(keys), stringArray(types), stringArray(resources), stringArray(data)}, nil
}

// EventsFor lists a resource's events in order (tests and the admin API use it).
func EventsFor(ctx context.Context, q sqlx.QueryerContext, resourceID string) ([]domain.Event, error) {
	var evs []domain.Event
	err := sqlx.SelectContext(ctx, q, &evs, `
		SELECT id, seq, account_id, api_key_id, type, resource_id, data, created_at
		FROM events WHERE resource_id = $1 ORDER BY seq`, resourceID)
	return evs, err
}
