// Package activities holds the I/O side of Jangada's workflows: one file per
// product, each with a struct whose methods are that product's activities
// (registered and called by Go reference, never by a string name). Every
// activity is idempotent: Temporal runs it at least once, so each one moves
// a record under its row lock only from the state it expects, and posts the
// ledger with a key that a retry cannot post twice.
//
// The functions a create shares with its workflow's first step (InsertCharge,
// ReserveTransfer, RequestRefund) are exported here, so that the API's early
// write and the workflow's safety net are one code path.
package activities

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// Base is what every product's activities share: the database and the
// public URL events carry. (Committed events wake the outbox readers
// through db.OnEventsCommitted.)
type Base struct {
	DB        *sqlx.DB
	PublicURL string
}

// change is what a step did to a record: whether it changed and the events
// to write, in order. The zero change means the record was already past
// this step (a retried activity): nothing is written.
type change struct {
	changed bool
	events  []string
	// also are events of other records the step wrote in its transaction
	// (a paid charge's fiscal invoice), stored after the record's own.
	also []db.NewEvent
	// post, when set, is the step's ledger posting, written in the
	// record's own statement (db.WriteTransition) rather than by apply.
	post *db.Posting
}

// emit is a change with these events (none: stored silently).
func emit(events ...string) change { return change{changed: true, events: events} }

// with adds the events of other records the step wrote (change.also).
func (c change) with(also []db.NewEvent) change { c.also = append(c.also, also...); return c }

// posting makes p (nil: none) the step's ledger posting (change.post).
func (c change) posting(p *db.Posting) change { c.post = p; return c }

// transition is the one way a step moves a transaction: lock its row, let
// apply change it (and post the ledger in the same database transaction,
// itself or through change.post), then store it, its posting and its
// events in one statement. It returns the record as stored. It is runStep
// with the transactions table's records (transactionRecords), whose store
// is that one statement.
func (b *Base) transition(ctx context.Context, id string, apply func(tx *sqlx.Tx, t *domain.Transaction) (change, error)) (domain.Transaction, error) {
	out, _, err := runStep(ctx, b.DB, id, b.transactionRecords(true), apply)
	if errors.Is(err, errEventsDiffer) {
		// The row stores a value apply left otherwise (a time PostgreSQL
		// rounds to the microsecond, say): rolled back and written again,
		// the events made from the row as stored.
		slog.Warn("transition written again: its events differed from its stored row", "id", id, "error", err)
		out, _, err = runStep(ctx, b.DB, id, b.transactionRecords(false), apply)
	}
	return out, err
}

// errEventsDiffer: a transition's events, made before its row was stored,
// would not say what the row says.
var errEventsDiffer = errors.New("activities: a transition's events differ from its stored row")

// transactionRecords are the records of the transactions table for a step.
// With oneStatement the store writes the row, the posting and the events in
// one statement (db.WriteTransition), the events made from the record as
// apply left it (errEventsDiffer, rolled back, when the stored row says
// otherwise); without, the row and the posting are stored first and the
// events are made from the stored row.
func (b *Base) transactionRecords(oneStatement bool) records[domain.Transaction] {
	return records[domain.Transaction]{lock: db.LockTransaction, store: func(ctx context.Context, tx *sqlx.Tx, t domain.Transaction, ch change) (domain.Transaction, error) {
		// The record's events say data (its public view), then come the
		// other records' events.
		events := func(r domain.Transaction, data domain.PublicTransaction) []db.NewEvent {
			evs := make([]db.NewEvent, 0, len(ch.events)+len(ch.also))
			for _, name := range ch.events {
				evs = append(evs, db.NewEvent{AccountID: r.AccountID, APIKeyID: r.APIKeyID, Type: name, ResourceID: r.ID, Data: data})
			}
			return append(evs, ch.also...)
		}
		if !oneStatement {
			out, _, err := db.WriteTransition(ctx, tx, t, ch.post)
			if err != nil {
				return out, err
			}
			if evs := events(out, out.EventData(b.PublicURL)); len(evs) > 0 {
				_, err = db.InsertEvents(ctx, tx, evs...)
			}
			return out, err
		}
		sent := t.EventData(b.PublicURL)
		out, _, err := db.WriteTransition(ctx, tx, t, ch.post, events(t, sent)...)
		if err != nil {
			return out, err
		}
		return out, sameEventData(sent, out.EventData(b.PublicURL))
	}}
}

// sameEventData compares the events' record with the stored one's.
func sameEventData(sent, stored domain.PublicTransaction) error {
	a, err := json.Marshal(sent)
	if err != nil {
		return err
	}
	b, err := json.Marshal(stored)
	if err != nil {
		return err
	}
	if !bytes.Equal(a, b) {
		return fmt.Errorf("%w: %s, stored %s", errEventsDiffer, a, b)
	}
	return nil
}
