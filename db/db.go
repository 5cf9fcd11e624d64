// Package db is Jangada's PostgreSQL adapter: connection, embedded
// migrations, the ledger posting function and the repositories of every
// resource. It is the only package that writes SQL.
package db

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/pressly/goose/v3"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Open connects to PostgreSQL and sizes the pool for a busy API process.
func Open(ctx context.Context, dsn string, opts ...OpenOption) (*sqlx.DB, error) {
	raw, err := openSQL(oneRoundTrip(dsn), opts)
	if err != nil {
		return nil, fmt.Errorf("db: open: %w", err)
	}
	d := sqlx.NewDb(raw, "postgres")
	d.SetMaxOpenConns(40)
	d.SetMaxIdleConns(40)
	d.SetConnMaxIdleTime(5 * time.Minute)
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := d.PingContext(pctx); err != nil {
		d.Close()
		return nil, fmt.Errorf("db: ping: %w", err)
	}
	return d, nil
}

// oneRoundTrip turns on lib/pq's binary_parameters: a query with arguments
// is then sent as Parse, Bind and Execute in one round trip instead of a
// Parse/Describe round trip before the Bind/Execute one. Every statement
// inside a transaction that holds balance locks is one round trip shorter.
// The price: []byte arguments go in binary format, so JSON for jsonb and
// text columns is passed as a string (domain.JSONB.Value, InsertEvent).
func oneRoundTrip(dsn string) string {
	if strings.Contains(dsn, "binary_parameters") {
		return dsn
	}
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		q.Set("binary_parameters", "yes")
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " binary_parameters=yes"
}

// EnsureDatabase creates the database named in dsn when it does not exist,
// connecting to the server's "postgres" database to do so.
func EnsureDatabase(ctx context.Context, dsn string) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return fmt.Errorf("db: parse url: %w", err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	if name == "" {
		return errors.New("db: the database URL names no database")
	}
	admin := *u
	admin.Path = "/postgres"
	d, err := sql.Open("postgres", admin.String())
	if err != nil {
		return fmt.Errorf("db: open: %w", err)
	}
	defer d.Close()
	var exists bool
	if err := d.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return fmt.Errorf("db: look up database %q: %w", name, err)
	}
	if exists {
		return nil
	}
	_, err = d.ExecContext(ctx, "CREATE DATABASE "+pq.QuoteIdentifier(name))
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Code == "42P04" { // created concurrently by another process
		return nil
	}
	if err != nil {
		return fmt.Errorf("db: create database %q: %w", name, err)
	}
	return nil
}

// Migrate applies the embedded migrations; concurrent callers are serialised
// by an advisory lock so that api and worker may both start with it.
func Migrate(ctx context.Context, d *sqlx.DB) error {
	conn, err := d.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(874201)`); err != nil {
		return fmt.Errorf("db: migration lock: %w", err)
	}
	defer conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock(874201)`)
	goose.SetBaseFS(migrations)
	goose.SetLogger(goose.NopLogger())
	if err := goose.SetDialect("postgres"); err != nil {
		return err
	}
	if err := goose.UpContext(ctx, d.DB, "migrations", goose.WithAllowMissing()); err != nil {
		return fmt.Errorf("db: migrate: %w", err)
	}
	return nil
}

// MigrationState is what the database holds of the embedded migrations.
type MigrationState struct {
	Applied int   // how many are applied
	Version int64 // the highest applied (migrations may land out of order)
}

// AppliedMigrations reads goose's table; a database never migrated has
// none applied.
func AppliedMigrations(ctx context.Context, d *sqlx.DB) (MigrationState, error) {
	var st MigrationState
	var exists bool
	if err := d.GetContext(ctx, &exists, `SELECT to_regclass('goose_db_version') IS NOT NULL`); err != nil || !exists {
		return st, err
	}
	err := d.QueryRowContext(ctx, `SELECT count(DISTINCT version_id), coalesce(max(version_id), 0)
		FROM goose_db_version WHERE is_applied AND version_id > 0`).Scan(&st.Applied, &st.Version)
	return st, err
}

// InTx runs fn in one database transaction, committing when it returns nil;
// the events fn inserted then reach the OnEventsCommitted hooks. Every
// transaction that inserts events runs through it.
func InTx(ctx context.Context, d *sqlx.DB, fn func(tx *sqlx.Tx) error) error {
	tx, err := d.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	txPools.Store(tx, d)
	defer txPools.Delete(tx)
	if err := fn(tx); err != nil {
		tx.Rollback()
		endTx(d, tx, false)
		return err
	}
	err = tx.Commit()
	endTx(d, tx, err == nil)
	return err
}

func isUniqueViolation(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && pqErr.Code == "23505"
}

func isCheckViolation(err error, constraint string) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && pqErr.Code == "23514" && pqErr.Constraint == constraint
}
