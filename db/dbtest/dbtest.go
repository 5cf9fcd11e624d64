// Package dbtest gives tests freshly migrated PostgreSQL databases, dropped
// when they end: one of a test's own (New), or one a package's tests share,
// made when first used (RunWithShared).
package dbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"flag"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

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
// Under -short (make unit) it skips the test instead: the unit tier needs no server.
func NewURL(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL: skipped in -short mode (make unit)")
	}
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
	d, _ := NewWithURL(t)
	return d
}

// NewWithURL is New with the database's URL, for a test that also opens
// connections of its own to it (a LISTEN).
func NewWithURL(t testing.TB) (*sqlx.DB, string) {
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
	return d, dsn
}

// RunWithShared gives a test package one migrated database for all its
// tests (creating a database costs about a second, a test milliseconds):
// from TestMain, os.Exit(dbtest.RunWithShared(m, &sharedDB)). The database
// is made when a test first uses *shared, not before: a run of the
// package's tests that need no database (go test -run TestPure) creates
// none and needs no server. It commits without waiting for the disk
// (nothing in it must survive a server crash) and is dropped when the
// tests end. Tests stay independent by opening their own accounts and
// looking only at their own records.
//
// Under -short (make unit) the package's tests do not run at all: they
// use *shared directly, so no helper could skip just the ones that touch
// it, and the unit tier must reach no server. The few that need no
// database run in the full suite (make test).
func RunWithShared(m *testing.M, shared **sqlx.DB) int {
	if !flag.Parsed() {
		flag.Parse() // testing.Short reads the flags; m.Run would parse them later
	}
	if testing.Short() {
		fmt.Println("dbtest: the package's tests share a PostgreSQL database: skipped in -short mode (make unit)")
		return 0
	}
	d, cleanup := Lazy()
	defer cleanup()
	*shared = d
	return m.Run()
}

// Lazy returns a pool whose database is created and migrated on its first
// connection, and the cleanup that closes the pool and drops the database
// if it was made. Until then nothing has touched the server.
func Lazy() (*sqlx.DB, func()) {
	b := make([]byte, 6)
	rand.Read(b)
	name := "jangada_test_" + hex.EncodeToString(b)
	u, err := url.Parse(ServerURL())
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	c := &lazyConnector{server: ServerURL(), name: name, dsn: u.String()}
	// The options db.Open gives every pool (binary parameters, its size).
	q := u.Query()
	q.Set("binary_parameters", "yes")
	u.RawQuery = q.Encode()
	if c.pq, err = pq.NewConnector(u.String()); err != nil {
		panic(err)
	}
	d := sqlx.NewDb(sql.OpenDB(c), "postgres")
	d.SetMaxOpenConns(40)
	d.SetMaxIdleConns(40)
	return d, func() {
		db.Close(d)
		c.drop()
	}
}

// lazyConnector creates its database on the first Connect, then hands out
// connections to it.
type lazyConnector struct {
	server, name, dsn string
	pq                driver.Connector
	once              sync.Once
	made              bool
	err               error
}

func (c *lazyConnector) Connect(ctx context.Context) (driver.Conn, error) {
	c.once.Do(func() { c.err = c.create() })
	if c.err != nil {
		return nil, c.err
	}
	return c.pq.Connect(ctx)
}

func (c *lazyConnector) Driver() driver.Driver { return c.pq.Driver() }

// create makes and migrates the database, with lazy commits; it runs on
// its own context so that the first test's deadline does not cut it short.
func (c *lazyConnector) create() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	admin, err := sql.Open("postgres", c.server)
	if err != nil {
		return err
	}
	defer admin.Close()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+pq.QuoteIdentifier(c.name)); err != nil {
		return fmt.Errorf("create test database: %w", err)
	}
	c.made = true
	d, err := db.Open(ctx, c.dsn)
	if err != nil {
		return err
	}
	defer db.Close(d)
	if err := db.Migrate(ctx, d); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	_, err = d.ExecContext(ctx, `ALTER DATABASE `+pq.QuoteIdentifier(c.name)+` SET synchronous_commit = off`)
	return err
}

// drop removes the database if it was made.
func (c *lazyConnector) drop() {
	c.once.Do(func() {}) // orders this read after create, and stops a late one
	if !c.made {
		return
	}
	if admin, err := sql.Open("postgres", c.server); err == nil {
		admin.Exec("DROP DATABASE IF EXISTS " + pq.QuoteIdentifier(c.name) + " WITH (FORCE)")
		admin.Close()
	}
}
