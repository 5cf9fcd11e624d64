package db_test

import (
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
)

// db.Lazy turns off the commit's wait for the disk for its own transaction
// only: the connection goes back to the pool with durable commits, so the
// next transaction on it (money, say) is not lazy by accident.
func TestLazyCommitIsScopedToItsTransaction(t *testing.T) {
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
	before := show(tx)
	if err := db.Lazy(ctx, tx); err != nil {
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
