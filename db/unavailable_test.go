package db_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/domain"
)

// ClosedPortURL is a database URL at a local port nothing listens on.
func closedPortURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "postgres://postgres@" + addr + "/jangada?sslmode=disable"
}

// Every way an outage reached us against a real server is Unavailable;
// ordinary query errors are not.
func TestUnavailableAgainstRealFailures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("nothing listening", func(t *testing.T) {
		d, err := sqlx.Open("postgres", closedPortURL(t))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		var one int
		err = d.GetContext(ctx, &one, `SELECT 1`)
		if err == nil || !db.Unavailable(fmt.Errorf("db: key lookup: %w", err)) {
			t.Fatalf("query at a closed port: %v (%T), want Unavailable", err, err)
		}
	})

	t.Run("host that does not resolve", func(t *testing.T) {
		d, err := sqlx.Open("postgres", "postgres://postgres@jangada-no-such-host.invalid:5432/x?sslmode=disable&connect_timeout=2")
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if _, err := d.ExecContext(ctx, `SELECT 1`); err == nil || !db.Unavailable(err) {
			t.Fatalf("query at an unknown host: %v (%T), want Unavailable", err, err)
		}
	})

	t.Run("connection ended by the server inside a transaction", func(t *testing.T) {
		d, err := db.Open(ctx, dbtest.ServerURL())
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		tx, err := d.BeginTxx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		var pid int
		if err := tx.GetContext(ctx, &pid, `SELECT pg_backend_pid()`); err != nil {
			t.Fatal(err)
		}
		// What a restart or an operator's kill does to the session.
		if _, err := d.ExecContext(ctx, `SELECT pg_terminate_backend($1)`, pid); err != nil {
			t.Fatal(err)
		}
		var one int
		err = tx.GetContext(ctx, &one, `SELECT $1::int`, 1)
		if err == nil {
			t.Fatal("a query on a terminated session succeeded")
		}
		if !db.Unavailable(err) {
			t.Fatalf("query on a terminated session: %v (%T), want Unavailable", err, err)
		}
	})

	t.Run("pool closed", func(t *testing.T) {
		d, err := db.Open(ctx, dbtest.ServerURL())
		if err != nil {
			t.Fatal(err)
		}
		d.Close()
		var one int
		if err := d.GetContext(ctx, &one, `SELECT 1`); err == nil || !db.Unavailable(err) {
			t.Fatalf("query on a closed pool: %v, want Unavailable", err)
		}
	})

	t.Run("ordinary errors are not an outage", func(t *testing.T) {
		d, err := db.Open(ctx, dbtest.ServerURL())
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		var one int
		syntax := d.GetContext(ctx, &one, `SELEC 1`)
		noRows := d.GetContext(ctx, &one, `SELECT 1 WHERE false`)
		for _, err := range []error{syntax, noRows, sql.ErrNoRows, domain.ErrUnauthorized, domain.NotFound("charge"),
			context.Canceled, context.DeadlineExceeded, &pq.Error{Code: "23505"}, errors.New("boom"), nil} {
			if db.Unavailable(err) {
				t.Errorf("Unavailable(%v) = true, want false", err)
			}
		}
	})

	t.Run("server refusing sessions", func(t *testing.T) {
		for _, code := range []pq.ErrorCode{"57P01", "57P02", "57P03", "08006", "08001", "53300"} {
			if err := fmt.Errorf("db: post: %w", &pq.Error{Code: code}); !db.Unavailable(err) {
				t.Errorf("pq error %s: Unavailable = false, want true", code)
			}
		}
	})
}
