package procs

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"
	"time"

	_ "github.com/lib/pq"
)

func TestDatabaseURL(t *testing.T) {
	got, err := DatabaseURL("postgres://postgres@127.0.0.1:5433/postgres?sslmode=disable", "jangada_x")
	if want := "postgres://postgres@127.0.0.1:5433/jangada_x?sslmode=disable"; err != nil || got != want {
		t.Fatalf("DatabaseURL = %q, %v; want %q", got, err, want)
	}
}

// The settings are what the bench's and the soak's runs need: loopback,
// no socket to meet another server's, room for every pool.
func TestPostgresSettings(t *testing.T) {
	s := (&Postgres{Port: 5499}).settings()
	for _, want := range []string{"-p 5499", "listen_addresses=127.0.0.1", "unix_socket_directories=''", "max_connections=300"} {
		if !strings.Contains(s, want) {
			t.Errorf("settings %q lack %q", s, want)
		}
	}
}

// A private server starts, takes a database and a connection, survives
// the soak's crash-restart, and stops.
func TestPrivatePostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL: skipped in -short mode (make unit)")
	}
	if PostgresBinDir() == "" {
		t.Skip("no initdb and pg_ctl on this machine")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// Not t.TempDir: as root the server runs as postgres, which must reach
	// the directory, and t.TempDir's parent is private to root.
	dir, err := os.MkdirTemp("", "procs-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	p, err := StartPostgres(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			p.Stop(context.Background(), "immediate")
		}
	})
	if p.Pid() == 0 {
		t.Fatal("running, and no postmaster pid")
	}
	dbURL, err := CreateDatabase(ctx, p.AdminURL(), "procs_test")
	if err != nil {
		t.Fatal(err)
	}
	query := func() {
		t.Helper()
		d, err := sql.Open("postgres", dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		var n int
		if err := d.QueryRowContext(ctx, "SELECT setting::int FROM pg_settings WHERE name = 'max_connections'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != PostgresMaxConnections {
			t.Fatalf("max_connections %d, want %d", n, PostgresMaxConnections)
		}
	}
	query()
	if err := p.Stop(ctx, "immediate"); err != nil {
		t.Fatal(err)
	}
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	query()
	if err := DropDatabase(ctx, p.AdminURL(), "procs_test"); err != nil {
		t.Fatal(err)
	}
	if err := p.Stop(ctx, "fast"); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if pid := p.Pid(); pid != 0 {
		t.Fatalf("stopped, and postmaster.pid still names %d", pid)
	}
}
