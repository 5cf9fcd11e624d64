package procs

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ClusterOptions describe a Temporal cluster on PostgreSQL to start as
// `jangada temporal -store postgres` processes.
type ClusterOptions struct {
	// Bin is a jangada binary built with the devserver tag (Build).
	Bin string
	// Dir receives the node logs and the set-up steps' logs.
	Dir string
	// PG is the PostgreSQL server's host:port (user postgres, trust or
	// JANGADA_TEMPORAL_PG_PASSWORD in Env).
	PG string
	// Database names the persistence database; the visibility database is
	// Database + "_visibility".
	Database string
	// Nodes is how many server processes run (≥ 2 for shards to move),
	// Shards the history shard count (more than Nodes, so each node owns
	// several and a node's death spreads its shards over the others).
	Nodes, Shards int
	// BasePort is node 1's frontend port (its block of 20 ports follows, then
	// node 2's…); 0 picks a free block below 32768.
	BasePort int
	// NodeLog is the nodes' own log level ("": warn).
	NodeLog string
	// Conns caps each node's pool per database (0: the tool's 20): the
	// nodes and Jangada's processes share PostgreSQL's max_connections.
	Conns int
	// Env is set over the tool's environment in every process
	// (JANGADA_TEMPORAL_NAMESPACE, JANGADA_LOG_LEVEL…).
	Env map[string]string
}

// Cluster is a running Temporal cluster: one process per node.
type Cluster struct {
	// Nodes are the server processes, node 1 first; each one's HTTPAddr
	// is its frontend.
	Nodes []*Proc
	// Frontends are the nodes' frontend addresses, in node order.
	Frontends []string
	opts      ClusterOptions
}

// Args is the command line of every step and node (after the binary).
func (o ClusterOptions) Args(extra ...string) []string {
	args := []string{"temporal", "-store", "postgres", "-pg", o.PG, "-db", o.Database,
		"-shards", strconv.Itoa(o.Shards), "-base-port", strconv.Itoa(o.BasePort)}
	if o.NodeLog != "" {
		args = append(args, "-node-log", o.NodeLog)
	}
	if o.Conns > 0 {
		args = append(args, "-pg-conns", strconv.Itoa(o.Conns))
	}
	return append(args, extra...)
}

// StartCluster migrates the schemas (`jangada temporal … -migrate`), starts
// node 1 alone (a fresh store's first node writes the cluster's metadata),
// then the others, each waited until its frontend is healthy, and last
// registers the namespace and search attributes on every frontend
// (`-register`). On an error the cluster returned holds what did start,
// for Stop.
func StartCluster(ctx context.Context, o ClusterOptions) (*Cluster, error) {
	c := &Cluster{}
	if o.Nodes < 1 || o.Shards < 1 {
		return c, fmt.Errorf("procs: a cluster needs nodes and shards (got %d, %d)", o.Nodes, o.Shards)
	}
	if o.BasePort == 0 {
		base, err := freeBlock(o.Nodes * 20)
		if err != nil {
			return c, err
		}
		o.BasePort = base
	}
	c.opts = o
	env := CleanEnv(o.Env)
	setup := filepath.Join(o.Dir, "temporal-setup.log")
	if err := RunOnce(ctx, o.Bin, env, setup, o.Args("-migrate")...); err != nil {
		return c, err
	}
	for n := 1; n <= o.Nodes; n++ {
		p := &Proc{Name: fmt.Sprintf("temporal-%d", n), Bin: o.Bin, Args: o.Args("-node", strconv.Itoa(n)), Env: env,
			Log: filepath.Join(o.Dir, fmt.Sprintf("temporal-%d.log", n))}
		p.HTTPAddr = "127.0.0.1:" + strconv.Itoa(o.BasePort+20*(n-1))
		if err := p.Start(); err != nil {
			return c, err
		}
		c.Nodes = append(c.Nodes, p)
		c.Frontends = append(c.Frontends, p.HTTPAddr)
		if err := WaitNode(ctx, p); err != nil {
			return c, err
		}
	}
	if err := RunOnce(ctx, o.Bin, env, setup, o.Args("-register", strings.Join(c.Frontends, ","))...); err != nil {
		return c, err
	}
	return c, nil
}

// WaitNode waits until the current run of a node says it is ready (its
// frontend answers health checks).
func WaitNode(ctx context.Context, p *Proc) error {
	return WaitLog(ctx, p, "temporal node ready", ReadyWithin)
}

// Stop stops every node at once (SIGTERM, killed after grace).
func (c *Cluster) Stop(grace time.Duration) {
	if c != nil {
		StopAll(grace, c.Nodes...)
	}
}

// DropDatabases drops the cluster's two databases on the server of
// adminURL (a maintenance database's URL), once every node has stopped.
func (c *Cluster) DropDatabases(adminURL string) error {
	if c == nil || c.opts.Database == "" {
		return nil
	}
	for _, name := range []string{c.opts.Database, c.opts.Database + "_visibility"} {
		if err := DropDatabase(context.Background(), adminURL, name); err != nil {
			return err
		}
	}
	return nil
}

// freeBlock finds n consecutive free loopback ports below 32768 (the
// membership table's smallint), starting at a port picked from the time so
// that two tools rarely probe the same block.
func freeBlock(n int) (int, error) {
	start := 20000 + int(time.Now().UnixNano()/1000%10000)
	for base := start; base+n < 32768; base += n {
		if blockFree(base, n) {
			return base, nil
		}
	}
	return 0, fmt.Errorf("procs: no %d free ports in a row below 32768", n)
}

// blockFree reports whether every port of [base, base+n) can be bound.
func blockFree(base, n int) bool {
	for p := base; p < base+n; p++ {
		if !portFree(p) {
			return false
		}
	}
	return true
}

// portFree reports whether 127.0.0.1:port can be bound now.
func portFree(port int) bool {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	l.Close()
	return true
}
