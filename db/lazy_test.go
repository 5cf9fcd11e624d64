package db_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// db.Lazy, and the dispatcher's claim, turn off the commit's wait for the
// disk for their own transaction only: the connection goes back to the pool
// with durable commits, so the next transaction on it (money, say) is not
// lazy by accident.
func TestLazyCommitIsScopedToItsTransaction(t *testing.T) {
	for name, makeLazy := range map[string]func(context.Context, *sqlx.Tx) error{
		"Lazy": db.Lazy,
		// The claim sets it in its own statement, which runs it only
		// when there are events to claim (without any, the transaction
		// writes nothing and its commit waits for nothing).
		"ClaimUndispatched": func(ctx context.Context, tx *sqlx.Tx) error {
			evs, err := db.ClaimUndispatched(ctx, tx, 1)
			if err == nil && len(evs) != 1 {
				err = fmt.Errorf("claimed %d events, want 1", len(evs))
			}
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			acct := newAccount(t, sharedDB, "Lazy Ltda")
			err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
				_, err := db.InsertEvents(t.Context(), tx, db.NewEvent{AccountID: acct.ID, Type: domain.EventPaymentCreated,
					ResourceID: domain.NewID(""), Data: map[string]any{"id": "x"}})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			lazyCommitIsScoped(t, makeLazy)
		})
	}
}

func lazyCommitIsScoped(t *testing.T, makeLazy func(context.Context, *sqlx.Tx) error) {
	ctx := t.Context()
	conn, err := sharedDB.Connx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	show := func(q sqlx.QueryerContext) string {
		t.Helper()
		var v string
		if err := sqlx.GetContext(ctx, q, &v, `SHOW synchronous_commit`); err != nil {
			t.Fatal(err)
		}
		return v
	}
	// Test databases commit lazily for speed (dbtest): this connection
	// stands for a production one.
	if _, err := conn.ExecContext(ctx, `SET synchronous_commit TO on`); err != nil {
		t.Fatal(err)
	}
	tx, err := conn.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	before := show(tx)
	if err := makeLazy(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if got := show(tx); got != "off" {
		t.Fatalf("inside the lazy transaction: synchronous_commit %q, want off", got)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if before != "on" {
		t.Fatalf("before: synchronous_commit %q, want on", before)
	}
	if got := show(conn); got != before {
		t.Fatalf("after the lazy commit: synchronous_commit %q, want %q again", got, before)
	}
}
