//go:build devserver

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/devserver"
	"github.com/jangada/jangada/internal/procs"
	"github.com/jangada/jangada/workflows"
)

// clusterFlags are `jangada temporal`'s flags for a cluster on PostgreSQL.
type clusterFlags struct {
	store, pg, user, db, register string
	nodeLog                       string
	shards, basePort, node, nodes int
	conns                         int
	migrate                       bool
}

// parseTemporal reads the flags of `jangada temporal`; it prints the usage
// on a bad command line.
func parseTemporal(args []string) (clusterFlags, error) {
	var f clusterFlags
	fs := flag.NewFlagSet("temporal", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.store, "store", "sqlite", "sqlite (the embedded dev server) or postgres (a cluster node or its set-up steps)")
	fs.StringVar(&f.pg, "pg", "127.0.0.1:5432", "PostgreSQL host:port (postgres store)")
	fs.StringVar(&f.user, "pg-user", "postgres", "PostgreSQL user; the password is JANGADA_TEMPORAL_PG_PASSWORD")
	fs.StringVar(&f.db, "db", "temporal", "persistence database; visibility is <db>_visibility")
	fs.IntVar(&f.shards, "shards", 8, "history shards, fixed at the cluster's first start")
	fs.IntVar(&f.basePort, "base-port", devserver.DefaultPort, "node 1's frontend port; node n's block of 20 ports starts 20(n−1) above")
	fs.BoolVar(&f.migrate, "migrate", false, "create and migrate both schemas, then exit")
	fs.IntVar(&f.node, "node", 0, "run node n of the cluster")
	fs.StringVar(&f.register, "register", "", "register the namespace and search attributes on these frontends (comma-separated), then exit")
	fs.StringVar(&f.nodeLog, "node-log", "warn", "a node's own log level (warn; info shows shard acquisition and membership)")
	fs.IntVar(&f.conns, "pg-conns", 20, "each node's connection pool per database (two databases per node)")
	fs.IntVar(&f.nodes, "nodes", 0, "migrate, start this many nodes as child processes, register; until SIGINT/SIGTERM")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "jangada temporal: %v %v\n\n%s", err, fs.Args(), helps["temporal"])
		return f, errUsage
	}
	modes := 0
	for _, on := range []bool{f.migrate, f.node > 0, f.register != "", f.nodes > 0} {
		if on {
			modes++
		}
	}
	if f.store == "sqlite" && modes == 0 {
		return f, nil
	}
	if f.store != "postgres" || modes != 1 {
		fmt.Fprintf(os.Stderr, "jangada temporal: -store postgres takes exactly one of -migrate, -node, -register, -nodes\n\n%s", helps["temporal"])
		return f, errUsage
	}
	return f, nil
}

// pgStore is the cluster's PostgreSQL as the flags name it.
func (f clusterFlags) pgStore() devserver.PostgresStore {
	return devserver.PostgresStore{Addr: f.pg, User: f.user, Password: os.Getenv("JANGADA_TEMPORAL_PG_PASSWORD"),
		Database: f.db, VisibilityDatabase: f.db + "_visibility", MaxConns: f.conns}
}

// runTemporalCluster runs one mode of a Temporal cluster on PostgreSQL.
func runTemporalCluster(ctx context.Context, cfg config.Config, f clusterFlags) error {
	switch {
	case f.migrate:
		vs, err := devserver.MigratePostgres(f.pgStore(), slog.Default())
		for _, v := range vs {
			fmt.Printf("schema of %s: %s → %s\n", v.Database, or(v.Before, "none"), v.After)
		}
		return err
	case f.register != "":
		rctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		frontends := strings.Split(f.register, ",")
		if err := devserver.RegisterNamespace(rctx, frontends, cfg.TemporalNamespace, devserver.NamespaceRetention, workflows.SearchAttributes(), slog.Default()); err != nil {
			return err
		}
		fmt.Printf("namespace %s and %d search attributes served by %s\n", cfg.TemporalNamespace, len(workflows.SearchAttributes()), f.register)
		return nil
	case f.node > 0:
		sctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		var level slog.Level
		if err := level.UnmarshalText([]byte(f.nodeLog)); err != nil {
			return err
		}
		// A logger of its own: the process's (JANGADA_LOG_LEVEL) would
		// drop what a lower -node-log asks for.
		n, err := devserver.StartNode(sctx, devserver.NodeOptions{Store: f.pgStore(), Node: f.node, BasePort: f.basePort, Shards: f.shards,
			Verbose: &level, Logger: app.NewLogger(os.Stderr, level)})
		if err != nil {
			return err
		}
		fmt.Printf("temporal node ready: node %d, frontend %s, %d shards\n", f.node, n.FrontendAddress(), f.shards)
		<-ctx.Done()
		return n.Stop()
	}
	return superviseCluster(ctx, cfg, f)
}

// superviseCluster is `-nodes N`: the whole cluster for a developer, each
// node a child process of this one (so that one can be killed alone).
func superviseCluster(ctx context.Context, cfg config.Config, f clusterFlags) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "jangada-temporal-")
	if err != nil {
		return err
	}
	c, err := procs.StartCluster(ctx, procs.ClusterOptions{Bin: self, Dir: dir, PG: f.pg, Database: f.db,
		Nodes: f.nodes, Shards: f.shards, BasePort: f.basePort, Env: map[string]string{
			"JANGADA_TEMPORAL_NAMESPACE":   cfg.TemporalNamespace,
			"JANGADA_TEMPORAL_PG_PASSWORD": os.Getenv("JANGADA_TEMPORAL_PG_PASSWORD"),
			"JANGADA_LOG_LEVEL":            cfg.LogLevel,
		}})
	defer c.Stop(20 * time.Second)
	if err != nil {
		return fmt.Errorf("%w (logs in %s)", err, dir)
	}
	fmt.Printf("temporal cluster ready: %d nodes, %d shards, namespace %s, frontends %s (logs in %s)\n",
		f.nodes, f.shards, cfg.TemporalNamespace, strings.Join(c.Frontends, ","), dir)
	<-ctx.Done()
	return nil
}

// or is s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
