package activities

import (
	"context"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
)

// A step moves one record, whatever its table: lock its row, let apply move
// it from the state the step expects (and write what else moves with it,
// the ledger included, in the same database transaction), then store the
// record and its events. apply answering the zero change means the record
// was already past the step (a retried activity): nothing is stored. Every
// product's step is lockStep (or runStep) with its own records: the
// transactions table's (Base.transition, whose store is one statement), or
// a table of its own (ownTable: billings, dunnings, fiscal invoices, PIX
// automatic authorizations, subscriptions).

// records says how a step reaches one kind of record: lock loads it under
// its row lock until the transaction ends; store writes the record as apply
// left it, with what the change carries (its events, the events of other
// records, its posting), and returns the record as stored.
type records[T any] struct {
	lock  func(ctx context.Context, tx *sqlx.Tx, id string) (T, error)
	store func(ctx context.Context, tx *sqlx.Tx, rec T, ch change) (T, error)
}

// lockStep runs a step inside tx, the caller's transaction (a charge's
// transition moving its owner, a use case's create): it answers the
// record as stored and true, or, when nothing was stored (the zero change,
// or an error, which the caller's rollback undoes), the record as apply
// left it (the lock's answer when that failed) and false.
func lockStep[T any](ctx context.Context, tx *sqlx.Tx, id string, r records[T], apply func(tx *sqlx.Tx, rec *T) (change, error)) (T, bool, error) {
	rec, err := r.lock(ctx, tx, id)
	if err != nil {
		return rec, false, err
	}
	ch, err := apply(tx, &rec)
	if err != nil || !ch.changed {
		return rec, false, err
	}
	out, err := r.store(ctx, tx, rec, ch)
	return out, err == nil, err
}

// runStep is lockStep in a database transaction of its own: an error rolls
// back everything apply wrote.
func runStep[T any](ctx context.Context, d *sqlx.DB, id string, r records[T], apply func(tx *sqlx.Tx, rec *T) (change, error)) (T, bool, error) {
	var out T
	var stored bool
	err := db.InTx(ctx, d, func(tx *sqlx.Tx) error {
		var err error
		out, stored, err = lockStep(ctx, tx, id, r, apply)
		return err
	})
	return out, stored && err == nil, err
}

// errPostInApply: a step of a table of its own handed its posting back
// (change.posting), which only the transactions table writes with its row.
var errPostInApply = errors.New("activities: a step of a record outside the transactions table posts the ledger in apply (db.Post)")

// ownTable are the records of a table of its own: lock and update are its
// repository's (update returns the row as stored), event makes a step's
// event of that name from the stored record (nil: the table's records have
// no events, and a step naming one fails). The store writes the row, then
// the step's events and those of other records (change.also), in order, in
// the step's transaction.
func ownTable[T any](lock func(context.Context, *sqlx.Tx, string) (T, error), update func(context.Context, *sqlx.Tx, T) (T, error),
	event func(rec T, name string) db.NewEvent) records[T] {
	return records[T]{lock: lock, store: func(ctx context.Context, tx *sqlx.Tx, rec T, ch change) (T, error) {
		if ch.post != nil {
			return rec, errPostInApply
		}
		if len(ch.events) > 0 && event == nil {
			return rec, fmt.Errorf("activities: a step named events %v of a record that has none", ch.events)
		}
		out, err := update(ctx, tx, rec)
		if err != nil {
			return out, err
		}
		evs := make([]db.NewEvent, 0, len(ch.events)+len(ch.also))
		for _, name := range ch.events {
			evs = append(evs, event(out, name))
		}
		if evs = append(evs, ch.also...); len(evs) > 0 {
			_, err = db.InsertEvents(ctx, tx, evs...)
		}
		return out, err
	}}
}

// saved adapts a repository's save, which writes the record over its row
// and returns nothing (a record kept as a document), to ownTable's update:
// the record as stored is the one written.
func saved[T any](save func(context.Context, sqlx.ExecerContext, T) error) func(context.Context, *sqlx.Tx, T) (T, error) {
	return func(ctx context.Context, tx *sqlx.Tx, rec T) (T, error) { return rec, save(ctx, tx, rec) }
}
