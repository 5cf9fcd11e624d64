package db_test

import (
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// BenchmarkOutboxCycle measures an event's way through the outbox: written
// (32 to a transaction, as a busy batch writes them), claimed and marked
// dispatched by the dispatcher's statements (32 to a claim, no endpoint):
// ns/op is per event.
func BenchmarkOutboxCycle(b *testing.B) {
	const batch = 32
	ctx := b.Context()
	acct := benchAccount(b)
	tx := domain.Transaction{ID: "tx_outbox_bench", Type: domain.TypeInternalOut, Status: domain.StatusCompleted}
	data := tx.EventData("https://api.jangada.dev")
	evs := make([]db.NewEvent, batch)
	for i := range evs {
		evs[i] = db.NewEvent{AccountID: acct.ID, Type: domain.EventInternalCompleted, ResourceID: tx.ID, Data: data}
	}
	b.ResetTimer()
	for done := 0; done < b.N; done += batch {
		n := min(batch, b.N-done)
		if err := db.InTx(ctx, sharedDB, func(t *sqlx.Tx) error {
			_, err := db.InsertEvents(ctx, t, evs[:n]...)
			return err
		}); err != nil {
			b.Fatal(err)
		}
		if err := db.InTx(ctx, sharedDB, func(t *sqlx.Tx) error {
			claimed, err := db.ClaimUndispatched(ctx, t, n)
			if err != nil {
				return err
			}
			seqs := make([]int64, len(claimed))
			for i, e := range claimed {
				seqs[i] = e.Seq
			}
			return db.MarkDispatched(ctx, t, seqs)
		}); err != nil {
			b.Fatal(err)
		}
	}
}
