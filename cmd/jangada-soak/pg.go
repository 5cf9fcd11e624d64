package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"time"

	"github.com/jangada/jangada/internal/procs"
	"github.com/lib/pq"
)

// postgres is the soak's PostgreSQL: a private server the soak owns (and
// may really restart), or the machine's shared server, where a restart is
// simulated on the soak's own database only.
type postgres struct {
	// srv is the private server started by the soak; nil on the shared one.
	srv *procs.Postgres

	adminURL string // the maintenance database
	dbName   string
	dbURL    string
}

// restartMethod describes, in the output, what "PostgreSQL restart" means
// for this run.
func (p *postgres) restartMethod() string {
	if p.srv != nil {
		return "real restart of the soak's private PostgreSQL cluster (pg_ctl stop -m immediate, down 3 s, pg_ctl start)"
	}
	return "simulated on the shared server: every backend of the soak database terminated (pg_terminate_backend) and new connections refused (ALLOW_CONNECTIONS false) for 3 s"
}

// startPrivate initialises and starts a private server under tmp
// (procs.StartPostgres).
func startPrivate(ctx context.Context, tmp string) (*postgres, error) {
	srv, err := procs.StartPostgres(ctx, tmp)
	if err != nil {
		return nil, err
	}
	return &postgres{srv: srv, adminURL: srv.AdminURL()}, nil
}

// shared uses the PostgreSQL at adminURL.
func shared(adminURL string) *postgres { return &postgres{adminURL: adminURL} }

// createDatabase makes the soak's fresh database (jangada_soak_<random>).
func (p *postgres) createDatabase(ctx context.Context) error {
	b := make([]byte, 5)
	rand.Read(b)
	name := "jangada_soak_" + hex.EncodeToString(b)
	dbURL, err := procs.CreateDatabase(ctx, p.adminURL, name)
	if err != nil {
		return err
	}
	p.dbName, p.dbURL = name, dbURL
	return nil
}

// restart is the PostgreSQL fault: see restartMethod. It returns once the
// database accepts connections again.
func (p *postgres) restart(ctx context.Context, down time.Duration) error {
	if p.srv != nil {
		if err := p.srv.Stop(ctx, "immediate"); err != nil {
			return err
		}
		pause(ctx, down)
		return p.srv.Start(ctx)
	}
	d, err := sql.Open("postgres", p.adminURL)
	if err != nil {
		return err
	}
	defer d.Close()
	name := pq.QuoteIdentifier(p.dbName)
	if _, err := d.ExecContext(ctx, "ALTER DATABASE "+name+" ALLOW_CONNECTIONS false"); err != nil {
		return err
	}
	_, err = d.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, p.dbName)
	pause(ctx, down)
	// Allow again whatever happened: the soak must not leave the database closed.
	if _, err2 := d.ExecContext(context.Background(), "ALTER DATABASE "+name+" ALLOW_CONNECTIONS true"); err2 != nil {
		return err2
	}
	return err
}

// stop drops the soak database (and stops a private server, whose files
// go with the temporary directory).
func (p *postgres) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if p.srv != nil {
		p.srv.Stop(ctx, "fast")
		return
	}
	if p.dbName == "" {
		return
	}
	procs.DropDatabase(ctx, p.adminURL, p.dbName)
}

// pause waits d or until ctx ends: the length of a fault, not a wait for
// a condition.
func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
