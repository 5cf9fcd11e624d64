package procs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/jangada/jangada/codec"
)

// Options describe a split to start.
type Options struct {
	// Bin is a jangada binary built with the devserver tag (Build).
	Bin string
	// Dir receives the process logs and Temporal's SQLite file.
	Dir string
	// DatabaseURL is the database every process shares; `jangada migrate`
	// creates it when missing.
	DatabaseURL string
	// APIs and Workers are how many `jangada api` and `jangada worker`
	// processes run.
	APIs, Workers int
	// Env is the tool's own configuration (task queue, log level, timings,
	// limits), set over the split's in every process.
	Env map[string]string
	// Cluster, when set, replaces `jangada temporal` (the dev server on
	// SQLite) with a Temporal cluster on PostgreSQL (StartCluster; Bin,
	// Dir and Env are filled from these options). Api and worker process i
	// dial node ((i−1) mod nodes)'s frontend, as behind a load balancer
	// that spreads connections.
	Cluster *ClusterOptions
}

// Split is Jangada in its production shape on one machine, every listener
// on loopback: `jangada temporal` (the embedded Temporal alone, file
// store), `jangada migrate` run once, then the worker and api processes.
type Split struct {
	// Temporal is the Temporal process; its HTTPAddr is the frontend. Nil
	// with a cluster.
	Temporal *Proc
	// Cluster is the Temporal cluster, when Options.Cluster asked for one.
	Cluster *Cluster
	// APIs and Workers are the api and worker processes, in start order.
	APIs, Workers []*Proc
}

// ReadyWithin bounds how long `jangada temporal` and each api process may
// take to become ready (a cold SQLite store on a busy machine is slow).
const ReadyWithin = 2 * time.Minute

// Start starts a split and returns once every api process answers
// /readyz. On an error the split returned holds what did start, for Stop.
func Start(ctx context.Context, o Options) (*Split, error) {
	s := &Split{}
	tport, err := FreePort()
	if err != nil {
		return s, err
	}
	token := make([]byte, 16)
	rand.Read(token)
	// What every process of any split needs; the tool's Env comes on top.
	common := map[string]string{
		"JANGADA_DATABASE_URL":          o.DatabaseURL,
		"JANGADA_TEMPORAL_ADDRESS":      "127.0.0.1:" + strconv.Itoa(tport),
		"JANGADA_TEMPORAL_NAMESPACE":    "default",
		"JANGADA_PAYLOAD_KEY":           codec.NewKey(),
		"JANGADA_ADMIN_TOKEN":           "split_" + hex.EncodeToString(token),
		"JANGADA_WEBHOOK_ALLOW_PRIVATE": "true", // the tools' receivers are on 127.0.0.1
		"JANGADA_DATA_DIR":              filepath.Join(o.Dir, "data"),
		"JANGADA_DEV_TEMPORAL_PORT":     strconv.Itoa(tport),
		"JANGADA_DEV_TEMPORAL_UI_PORT":  "0",
		"JANGADA_HTTP_ADDR":             "127.0.0.1:0",
		"JANGADA_WS_ADDR":               "127.0.0.1:0",
		// Every process has an operators' listener (admin API, metrics):
		// on one machine each takes a port of its own (newProc picks it,
		// so that a tool can read a process's /metrics). The admin API
		// stays on the HTTP listener too, where the tools call it.
		"JANGADA_ADMIN_ADDR": "127.0.0.1:0",
	}
	newProc := func(name string, args []string, own map[string]string) *Proc {
		if own == nil {
			own = map[string]string{}
		}
		if admin, err := FreeAddr(); err == nil {
			own["JANGADA_ADMIN_ADDR"] = admin
		}
		p := &Proc{Name: name, Bin: o.Bin, Args: args, Env: CleanEnv(common, o.Env, own), Log: filepath.Join(o.Dir, name+".log")}
		p.HTTPAddr, p.WSAddr, p.AdminAddr = own["JANGADA_HTTP_ADDR"], own["JANGADA_WS_ADDR"], own["JANGADA_ADMIN_ADDR"]
		return p
	}
	// frontend is the Temporal address of the i-th api or worker process.
	frontend := func(i int) string { return common["JANGADA_TEMPORAL_ADDRESS"] }
	if o.Cluster != nil {
		co := *o.Cluster
		co.Bin, co.Dir = o.Bin, o.Dir
		co.Env = map[string]string{}
		for k, v := range o.Env {
			co.Env[k] = v
		}
		co.Env["JANGADA_TEMPORAL_NAMESPACE"] = common["JANGADA_TEMPORAL_NAMESPACE"]
		co.Env["JANGADA_LOG_LEVEL"] = "warn"
		s.Cluster, err = StartCluster(ctx, co)
		if err != nil {
			return s, err
		}
		frontend = func(i int) string { return s.Cluster.Frontends[(i-1)%len(s.Cluster.Frontends)] }
		common["JANGADA_TEMPORAL_ADDRESS"] = frontend(1)
	} else {
		s.Temporal = newProc("temporal", []string{"temporal"}, nil)
		s.Temporal.HTTPAddr = common["JANGADA_TEMPORAL_ADDRESS"]
		if err := s.Temporal.Start(); err != nil {
			return s, err
		}
		if err := WaitLog(ctx, s.Temporal, "temporal ready", ReadyWithin); err != nil {
			return s, err
		}
	}
	// One migration before any process: they would otherwise all migrate
	// at once on start (serialised, but each waiting on the others).
	if err := RunOnce(ctx, o.Bin, CleanEnv(common, o.Env), filepath.Join(o.Dir, "migrate.log"), "migrate"); err != nil {
		return s, err
	}
	for i := 1; i <= o.Workers; i++ {
		w := newProc(fmt.Sprintf("worker-%d", i), []string{"worker"}, map[string]string{"JANGADA_TEMPORAL_ADDRESS": frontend(i)})
		if err := w.Start(); err != nil {
			return s, err
		}
		s.Workers = append(s.Workers, w)
	}
	for i := 1; i <= o.APIs; i++ {
		h, err1 := FreeAddr()
		ws, err2 := FreeAddr()
		if err := errors.Join(err1, err2); err != nil {
			return s, err
		}
		a := newProc(fmt.Sprintf("api-%d", i), []string{"api"}, map[string]string{"JANGADA_HTTP_ADDR": h, "JANGADA_WS_ADDR": ws, "JANGADA_TEMPORAL_ADDRESS": frontend(i)})
		if err := a.Start(); err != nil {
			return s, err
		}
		s.APIs = append(s.APIs, a)
	}
	for _, a := range s.APIs {
		if err := WaitReady(ctx, a, ReadyWithin); err != nil {
			return s, err
		}
	}
	return s, nil
}

// Stop stops the api and worker processes together, then Temporal (or
// the cluster's nodes), which they need until they are gone; each is
// killed after grace.
func (s *Split) Stop(grace time.Duration) {
	StopAll(grace, append(append([]*Proc{}, s.APIs...), s.Workers...)...)
	if s.Temporal != nil {
		s.Temporal.Signal(syscall.SIGTERM, grace)
	}
	s.Cluster.Stop(grace)
}
