// Package dbtest gives each test its own freshly migrated PostgreSQL
// database, dropped when the test ends, so tests never share state.
package dbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/db"
)

// ServerURL is the PostgreSQL server tests use; JANGADA_TEST_DATABASE_URL
// overrides the CI default.
func ServerURL() string {
	if v := os.Getenv("JANGADA_TEST_DATABASE_URL"); v != "" {
		return v
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// NewURL creates an empty database and returns its URL; it is dropped at cleanup.
func NewURL(t testing.TB) string {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	name := "jangada_test_" + hex.EncodeToString(b)
	u, err := url.Parse(ServerURL())
	if err != nil {
		t.Fatal(err)
	}
	admin, err := sql.Open("postgres", u.String())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec("CREATE DATABASE " + pq.QuoteIdentifier(name)); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		admin.Exec("DROP DATABASE IF EXISTS " + pq.QuoteIdentifier(name) + " WITH (FORCE)")
		admin.Close()
	})
	u.Path = "/" + name
	return u.String()
}

// New returns a connection to a new, migrated database.
func New(t testing.TB) *sqlx.DB {
	t.Helper()
	dsn := NewURL(t)
	d, err := db.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(context.Background(), d); err != nil {
		t.Fatal(fmt.Errorf("migrate: %w", err))
	}
	t.Cleanup(func() { db.Close(d) })
	return d
}

// RunWithShared gives a test package one migrated database for all its
// tests (creating a database costs about a second, a test milliseconds):
// from TestMain, os.Exit(dbtest.RunWithShared(m, &sharedDB)). The database
// commits without waiting for the disk (nothing in it must survive a server
// crash) and is dropped when the tests end. Tests stay independent by
// opening their own accounts and looking only at their own records.
func RunWithShared(m *testing.M, shared **sqlx.DB) int {
	tb := &mainTB{}
	defer tb.cleanup()
	d := New(tb)
	if _, err := d.Exec(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET synchronous_commit = off', current_database()); END $$`); err != nil {
		panic(err)
	}
	d.SetMaxIdleConns(0) // reconnect with the new setting
	d.SetMaxIdleConns(40)
	*shared = d
	return m.Run()
}

// mainTB is the testing.TB New needs outside any test: it fails by
// panicking and runs cleanups when TestMain returns.
type mainTB struct {
	testing.TB
	cleanups []func()
}

func (*mainTB) Helper()                      {}
func (*mainTB) Fatal(args ...any)            { panic(fmt.Sprint(args...)) }
func (*mainTB) Fatalf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }
func (tb *mainTB) Cleanup(f func())          { tb.cleanups = append(tb.cleanups, f) }
func (tb *mainTB) cleanup() {
	for i := len(tb.cleanups) - 1; i >= 0; i-- {
		tb.cleanups[i]()
	}
}
