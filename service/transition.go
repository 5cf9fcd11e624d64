package service

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// change is what a transition did: whether the record changed and the
// events to write (in order). The zero change means the record was already
// past this step (a retried activity) and nothing is written.
type change struct {
	changed bool
	events  []string
}

// transition locks a record, lets apply change it (and post the ledger in
// the same tx), then stores it and its events: one database transaction per
// state change. It returns the record as stored.
func transition(ctx context.Context, d *sqlx.DB, publicURL, id string, apply func(tx *sqlx.Tx, t *domain.Transaction) (change, error)) (domain.Transaction, error) {
	var out domain.Transaction
	err := db.InTx(ctx, d, func(tx *sqlx.Tx) error {
		t, err := db.LockTransaction(ctx, tx, id)
		if err != nil {
			return err
		}
		ch, err := apply(tx, &t)
		if err != nil {
			return err
		}
		if !ch.changed {
			out = t
			return nil
		}
		if out, err = db.UpdateTransaction(ctx, tx, t); err != nil {
			return err
		}
		for _, ev := range ch.events {
			if _, err := db.InsertEvent(ctx, tx, out.AccountID, out.APIKeyID, ev, out.ID, out.EventData(publicURL)); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// emit is a change with these events (none: stored silently).
func emit(events ...string) change { return change{changed: true, events: events} }
