package dbtest_test

import (
	"testing"

	"github.com/jangada/jangada/db/dbtest"
)

// A shared database costs nothing until a test uses it: with no server to
// reach, making and cleaning up the pool still succeeds.
func TestLazyTouchesNoServerUntilUsed(t *testing.T) {
	t.Setenv("JANGADA_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable&connect_timeout=1")
	d, cleanup := dbtest.Lazy()
	cleanup()
	if d == nil {
		t.Fatal("no pool")
	}
}

// The first use creates and migrates the database; the cleanup drops it.
func TestLazyCreatesOnFirstUseAndDrops(t *testing.T) {
	if testing.Short() {
		t.Skip("needs PostgreSQL: skipped in -short mode (make unit)")
	}
	d, cleanup := dbtest.Lazy()
	var name string
	var tables int
	if err := d.Get(&name, `SELECT current_database()`); err != nil {
		cleanup()
		t.Fatal(err)
	}
	if err := d.Get(&tables, `SELECT count(*) FROM information_schema.tables WHERE table_name = 'ledger_entries'`); err != nil || tables != 1 {
		cleanup()
		t.Fatalf("migrated: %d ledger_entries tables, %v", tables, err)
	}
	cleanup()
	server := dbtest.New(t) // any connection to the server will do
	var left bool
	if err := server.Get(&left, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name); err != nil || left {
		t.Fatalf("database %s still there after cleanup: %v, %v", name, left, err)
	}
}
