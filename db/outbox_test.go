package db_test

import (
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/domain"
)

// An event enters the dispatch queue with the statement that writes it,
// is claimed from there without its data, and leaves the queue when marked
// dispatched; the event's own row is never written again.
func TestOutboxQueueHoldsEachEventUntilMarked(t *testing.T) {
	ctx := t.Context()
	d := dbtest.New(t)
	acct := newAccount(t, d, "Loja Fila")
	var evs []domain.Event
	if err := db.InTx(ctx, d, func(tx *sqlx.Tx) error {
		var err error
		evs, err = db.InsertEvents(ctx, tx,
			db.NewEvent{AccountID: acct.ID, Type: domain.EventInternalCompleted, ResourceID: "tx_fila_1", Data: map[string]any{"a": 1}},
			db.NewEvent{AccountID: acct.ID, Type: domain.EventInternalCompleted, ResourceID: "tx_fila_2", Data: map[string]any{"a": 2}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	queued := func() []int64 {
		var seqs []int64
		if err := d.SelectContext(ctx, &seqs, `SELECT seq FROM events_undispatched ORDER BY seq`); err != nil {
			t.Fatal(err)
		}
		return seqs
	}
	if got := queued(); !slices.Equal(got, []int64{evs[0].Seq, evs[1].Seq}) {
		t.Fatalf("queued %v, want the two events' seqs %d and %d", got, evs[0].Seq, evs[1].Seq)
	}
	version := func() []string {
		var xmins []string
		if err := d.SelectContext(ctx, &xmins, `SELECT xmin::text FROM events ORDER BY seq`); err != nil {
			t.Fatal(err)
		}
		return xmins
	}
	before := version()
	if err := db.InTx(ctx, d, func(tx *sqlx.Tx) error {
		claimed, err := db.ClaimUndispatched(ctx, tx, 10)
		if err != nil {
			return err
		}
		if len(claimed) != 2 || claimed[0].ID != evs[0].ID || claimed[1].ID != evs[1].ID {
			t.Fatalf("claimed %+v", claimed)
		}
		for _, c := range claimed {
			if c.Data != nil || c.AccountID != acct.ID || c.Type != domain.EventInternalCompleted {
				t.Fatalf("claimed %+v: want the routing fields and no data", c)
			}
		}
		return db.MarkDispatched(ctx, tx, []int64{claimed[0].Seq})
	}); err != nil {
		t.Fatal(err)
	}
	if got := queued(); !slices.Equal(got, []int64{evs[1].Seq}) {
		t.Fatalf("queued %v after the first was marked, want %d", got, evs[1].Seq)
	}
	if after := version(); !slices.Equal(before, after) {
		t.Fatalf("the events' rows were written again: xmin %v, then %v", before, after)
	}
}
