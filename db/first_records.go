package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
)

// Intent asks FirstRecords to record, with the records, that the resource's
// workflow must be started (workflow_launches; see InsertLaunch).
type Intent struct {
	Kind  string
	Grace time.Duration
}

// FirstRecords writes a new resource's first records in ONE statement: its
// transaction row, its first event and, when intent is set, its workflow
// intent. One statement is atomic on its own, so run on a *sqlx.DB it needs
// no BEGIN and no COMMIT round trips: a create's commit is one round trip
// (and one fsync) instead of five. Run on a *sqlx.Tx it joins that
// transaction. It writes nothing and returns no event when a row with the
// same id exists (a retried create, or a workflow's guard finding the row).
func FirstRecords(ctx context.Context, q sqlx.ExtContext, t domain.Transaction, ev NewEvent, intent *Intent) (*domain.Event, error) {
	if !t.Details.Valid {
		t.Details = domain.SomeJSON(domain.Details{})
	}
	insert, args, err := sqlx.Named(insertTransactionSQL+` RETURNING id, account_id`, t)
	if err != nil {
		return nil, fmt.Errorf("db: insert transaction: %w", err)
	}
	data, err := json.Marshal(ev.Data)
	if err != nil {
		return nil, fmt.Errorf("db: event data: %w", err)
	}
	n := len(args)
	p := func(i int) string { return "$" + strconv.Itoa(n+i) }
	args = append(args, domain.NewID("evt_"), ev.APIKeyID, ev.Type, string(data))
	query := `WITH t AS (` + sqlx.Rebind(sqlx.DOLLAR, insert) + `),
		e AS (INSERT INTO events (id, account_id, api_key_id, type, resource_id, data)
		      SELECT ` + p(1) + `, t.account_id, ` + p(2) + `, ` + p(3) + `, t.id, ` + p(4) + `::jsonb FROM t
		      RETURNING id, seq, account_id, api_key_id, type, resource_id, data, created_at)`
	if intent != nil {
		args = append(args, intent.Kind, intent.Grace.Seconds())
		query += `,
		l AS (INSERT INTO workflow_launches (kind, resource_id, due_at)
		      SELECT ` + p(5) + `, t.id, now() + make_interval(secs => ` + p(6) + `) FROM t ON CONFLICT DO NOTHING)`
	}
	var out domain.Event
	err = hotGet(ctx, q, &out, query+` SELECT * FROM e`, args...)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case isUniqueViolation(err):
		return nil, domain.Invalid("externalReference", "is already used by another %s of this account", t.Type)
	case err != nil:
		return nil, fmt.Errorf("db: insert first records: %w", err)
	}
	if tx, ok := q.(*sqlx.Tx); ok {
		noteEvent(tx, out)
	} else {
		eventsCommitted([]domain.Event{out})
	}
	return &out, nil
}
