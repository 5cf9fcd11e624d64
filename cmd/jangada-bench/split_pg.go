//go:build devserver

package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jangada/jangada/internal/procs"
)

// splitServer is the PostgreSQL a split rig's databases go on: the
// machine's shared server, or, for a split on a Temporal cluster, a
// private server of the bench's own. The cluster's nodes each keep two
// pools beside the api's, the workers' and the rig's: on the shared
// server's 100 connections delivery attempts waited for a connection and
// the deliveries/s figure measured the limit, not the cluster.
type splitServer struct {
	// adminURL is its maintenance database.
	adminURL string
	// private is the bench's own server, nil for the shared one; dir holds
	// its files.
	private *procs.Postgres
	dir     string
	// fallback says why a private server was wanted and not used.
	fallback string
}

// sharedServer is the machine's PostgreSQL (JANGADA_BENCH_DATABASE_URL).
func sharedServer() *splitServer {
	return &splitServer{adminURL: cmp.Or(os.Getenv("JANGADA_BENCH_DATABASE_URL"), "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable")}
}

// startSplitServer is the server of a split run: a private one when the
// run is on a Temporal cluster (nodes > 0), else, or when no private server
// can start (no initdb on the machine), the shared one, saying so.
func startSplitServer(ctx context.Context, nodes int) *splitServer {
	if nodes == 0 {
		return sharedServer()
	}
	s := &splitServer{}
	var err error
	if s.dir, err = os.MkdirTemp("", "jangada-bench-pg-"); err == nil {
		fmt.Println("starting a private PostgreSQL for the cluster…")
		if s.private, err = procs.StartPostgres(ctx, s.dir); err == nil {
			s.adminURL = s.private.AdminURL()
			return s
		}
		os.RemoveAll(s.dir)
	}
	shared := sharedServer()
	if ctx.Err() != nil {
		return shared // interrupted: the rig fails next, on ctx
	}
	// One line: pg_ctl's output may run over several.
	shared.fallback = strings.Join(strings.Fields(err.Error()), " ")
	if errors.Is(err, procs.ErrNoPostgresBin) {
		shared.fallback = "no initdb and pg_ctl on this machine"
	}
	fmt.Printf("no private PostgreSQL (%s): the cluster runs on the shared server, its pools capped at %d per database\n", shared.fallback, splitSharedNodeConns)
	return shared
}

// nodeConns is each cluster node's pool cap per database: the tool's
// default (20, as deployed) on a private server, which has room for every
// pool; splitSharedNodeConns on the shared one.
func (s *splitServer) nodeConns() int {
	if s.private != nil {
		return 0
	}
	return splitSharedNodeConns
}

// String says which PostgreSQL the split ran on, for the output.
func (s *splitServer) String() string {
	if s.private != nil {
		return fmt.Sprintf("a private server of the bench's own (%s, max_connections %d, each Temporal node's pools at the default 20 per database)",
			s.private.Addr(), procs.PostgresMaxConnections)
	}
	host := s.adminURL
	if u, err := url.Parse(s.adminURL); err == nil {
		host = u.Host
	}
	what := "the shared server at " + host
	if s.fallback != "" {
		what += fmt.Sprintf(" (no private server: %s; each Temporal node's pools capped at %d per database)", s.fallback, splitSharedNodeConns)
	}
	return what
}

// stop stops a private server and removes its files (nothing for the
// shared one: each rig drops its own databases).
func (s *splitServer) stop() {
	if s.private == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.private.Stop(ctx, "fast"); err != nil {
		// A server that will not shut down cleanly must still not outlive
		// the bench.
		if err2 := s.private.Stop(ctx, "immediate"); err2 != nil {
			fmt.Println("stopping the private PostgreSQL:", errors.Join(err, err2), "(files kept in", s.dir+")")
			return
		}
	}
	os.RemoveAll(s.dir)
}

// pgCPUServer is the private server whose processes readCPU counts as
// PostgreSQL's while a split runs on it; nil counts every postgres process
// on the machine (the shared server, whose postmaster the bench does not
// know, and whatever else runs on it).
var pgCPUServer atomic.Pointer[procs.Postgres]

// pgCPU is PostgreSQL's CPU so far (see pgCPUServer).
func pgCPU() time.Duration {
	if p := pgCPUServer.Load(); p != nil {
		return p.CPU()
	}
	return procs.PostgresCPU(0)
}
