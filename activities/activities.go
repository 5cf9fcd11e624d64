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
	"fmt"

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
// events in one statement. It returns the record as stored.
func (b *Base) transition(ctx context.Context, id string, apply func(tx *sqlx.Tx, t *domain.Transaction) (change, error)) (domain.Transaction, error) {
	var out domain.Transaction
	err := db.InTx(ctx, b.DB, func(tx *sqlx.Tx) error {
		t, err := db.LockTransaction(ctx, tx, id)
		if err != nil {
			return err
		}
		ch, err := apply(tx, &t)
		if err != nil || !ch.changed {
			out = t
			return err
		}
		// The row and its events are one statement; the events carry the
		// record as apply left it, which is what the update stores.
		data := t.EventData(b.PublicURL)
		evs := make([]db.NewEvent, 0, len(ch.events)+len(ch.also))
		for _, name := range ch.events {
			evs = append(evs, db.NewEvent{AccountID: t.AccountID, APIKeyID: t.APIKeyID, Type: name, ResourceID: t.ID, Data: data})
		}
		stored, _, err := db.WriteTransition(ctx, tx, t, ch.post, append(evs, ch.also...)...)
		if err != nil {
			return err
		}
		out = stored
		return sameEventData(data, out.EventData(b.PublicURL))
	})
	return out, err
}

// sameEventData guards the one-statement transition: an apply that set a
// field the update does not store would have written events that say
// what the row does not. It fails the step (rolled back) instead.
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
		return fmt.Errorf("activities: a transition's events differ from its stored row: %s, stored %s", a, b)
	}
	return nil
}
