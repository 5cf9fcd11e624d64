package devserver

import (
	"errors"
	"fmt"
	"log/slog"
	"net"

	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/persistence/sql/sqlplugin/postgresql"
	"go.temporal.io/server/tools/common/schema"
	sqltool "go.temporal.io/server/tools/sql"
)

// PostgresStore is where a Temporal cluster keeps its state: the
// persistence and visibility databases on one PostgreSQL server, as the
// official server image's postgres12 setup has them.
type PostgresStore struct {
	// Addr is the server's host:port.
	Addr string
	// User and Password authenticate every connection (the schema tool's
	// and the server's).
	User, Password string
	// Database holds the persistence schema (executions, shards, queues,
	// membership); VisibilityDatabase the visibility schema (the list
	// queries and Jangada's search attributes).
	Database, VisibilityDatabase string
	// MaxConns caps each database's connection pool per server process
	// (0: 20), so that several nodes and Jangada's own processes fit under
	// the server's max_connections.
	MaxConns int
}

// The embedded schema directories, as temporal-sql-tool names them with
// --schema-name (the files under /etc/temporal/schema in admin-tools).
const (
	PostgresSchemaName           = "postgresql/v12/temporal"
	PostgresVisibilitySchemaName = "postgresql/v12/visibility"
)

// sql is the server's connection configuration for one of the databases.
func (s PostgresStore) sql(db string) *config.SQL {
	conns := s.MaxConns
	if conns == 0 {
		conns = 20
	}
	return &config.SQL{
		PluginName:      postgresql.PluginName,
		ConnectAddr:     s.Addr,
		ConnectProtocol: "tcp",
		User:            s.User,
		Password:        s.Password,
		DatabaseName:    db,
		MaxConns:        conns,
		MaxIdleConns:    conns,
	}
}

// validate refuses a store the tool could not address.
func (s PostgresStore) validate() error {
	if _, _, err := net.SplitHostPort(s.Addr); err != nil {
		return fmt.Errorf("devserver: PostgreSQL address %q: %w", s.Addr, err)
	}
	if s.Database == "" || s.VisibilityDatabase == "" || s.Database == s.VisibilityDatabase {
		return errors.New("devserver: two distinct databases are needed (persistence and visibility)")
	}
	return nil
}

// SchemaVersion is one database's schema version before and after a
// migration run ("" before: the database had no schema).
type SchemaVersion struct {
	Database, Before, After string
}

// MigratePostgres does what the admin-tools job of a deployment does with
// temporal-sql-tool, through the same code (go.temporal.io/server/tools/sql
// and its schema tasks) and the schema files embedded in the server module,
// so the versions always match the server that will run on them: for each
// of the two databases, create-database when missing, setup-schema -v 0.0
// when it has no version table yet, then update-schema to the newest
// version. Each step is skipped when done, so a second run changes nothing.
func MigratePostgres(s PostgresStore, logger *slog.Logger) ([]SchemaVersion, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	if logger == nil {
		logger = slog.Default()
	}
	l, _ := quietLogger(logger)
	log := serverLogger{l: l}
	var out []SchemaVersion
	for _, d := range []struct{ db, schema string }{
		{s.Database, PostgresSchemaName},
		{s.VisibilityDatabase, PostgresVisibilitySchemaName},
	} {
		v, err := migrateOne(s, d.db, d.schema, log)
		if err != nil {
			return out, fmt.Errorf("devserver: database %s (%s): %w", d.db, d.schema, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// migrateOne brings one database to the newest version of its schema.
func migrateOne(s PostgresStore, db, schemaName string, log serverLogger) (SchemaVersion, error) {
	v := SchemaVersion{Database: db}
	// create-database: connected to the maintenance database, as the tool
	// does (its --defaultdb, "postgres" for this plugin).
	// The plugin answers an existing database (42P04) with no error.
	if err := sqltool.DoCreateDatabase(s.sql(db), "postgres", log); err != nil {
		return v, fmt.Errorf("create-database: %w", err)
	}
	conn, err := sqltool.NewConnection(s.sql(db), log)
	if err != nil {
		return v, err
	}
	defer conn.Close()
	if before, err := conn.ReadSchemaVersion(); err == nil {
		v.Before = before
	} else {
		// setup-schema -v 0.0: the version tables only; update-schema then
		// applies every versioned directory from 0.0 on.
		task := schema.NewSetupSchemaTask(conn, &schema.SetupConfig{InitialVersion: "0.0"}, log)
		if err := task.Run(); err != nil {
			return v, fmt.Errorf("setup-schema: %w", err)
		}
	}
	task := schema.NewUpdateSchemaTask(conn, &schema.UpdateConfig{DBName: db, SchemaName: schemaName}, log)
	if err := task.Run(); err != nil {
		return v, fmt.Errorf("update-schema: %w", err)
	}
	if v.After, err = conn.ReadSchemaVersion(); err != nil {
		return v, err
	}
	return v, nil
}
