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
	t.Cleanup(func() { d.Close() })
	return d
}
