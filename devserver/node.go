package devserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/primitives"
	"go.temporal.io/server/temporal"
)

// NodeOptions describe one node of a Temporal cluster on PostgreSQL: a
// server process running every service (frontend, history, matching,
// worker) that finds the others through the server's own membership
// (ringpop, seeded from the cluster_membership table), not a static list.
type NodeOptions struct {
	// Store is the cluster's PostgreSQL (MigratePostgres first).
	Store PostgresStore
	// Node numbers this node from 1; its ports follow from it (NodePorts).
	Node int
	// BasePort is node 1's frontend gRPC port; 0 is DefaultPort.
	BasePort int
	// IP is the address every service binds to and announces to the
	// others; empty is 127.0.0.1.
	IP string
	// Shards is the number of history shards. It is fixed when the
	// cluster's metadata is first written: every node must say the same.
	Shards int
	// Logger receives WARN and above (or from Verbose on); nil is
	// slog.Default().
	Logger *slog.Logger
	// Verbose, when set, lowers the node's level from WARN: shard
	// acquisition and membership changes are logged at INFO.
	Verbose *slog.Level
}

// Ports of one node, each below 32768: PostgreSQL's cluster_membership
// table stores them as smallint, and a larger one makes the node fail its
// membership heartbeat ("Not enough hosts to serve the request").
type Ports struct {
	Frontend, FrontendHTTP, History, Matching, Worker   int
	FrontendRing, HistoryRing, MatchingRing, WorkerRing int
}

// NodeStride is how far apart two nodes' port blocks are.
const NodeStride = 20

// NodePorts lays node n's ports out from base: the four gRPC ports and
// the frontend's HTTP port at base+20(n−1)+0…4, the membership ports at
// +10…13 (with the default base, node 1's frontend is the SDK's 7233).
func NodePorts(base, n int) (Ports, error) {
	if base == 0 {
		base = DefaultPort
	}
	b := base + NodeStride*(n-1)
	p := Ports{b, b + 4, b + 1, b + 2, b + 3, b + 10, b + 11, b + 12, b + 13}
	if n < 1 || base < 1024 || b+NodeStride > 32768 {
		return p, fmt.Errorf("devserver: node %d from base port %d: every port must lie in 1024–32767 (membership stores them as smallint)", n, base)
	}
	return p, nil
}

// Node is a running cluster node.
type Node struct {
	server   temporal.Server
	frontend string
	logLevel *slog.LevelVar
}

// pgClusterName is the single cluster's name, as in the official config.
const pgClusterName = "active"

// StartNode starts one node and returns once its frontend answers health
// checks. The first node of a fresh store writes the cluster's metadata
// (shard count, cluster id): start it alone, then the others.
func StartNode(ctx context.Context, o NodeOptions) (*Node, error) {
	if err := o.Store.validate(); err != nil {
		return nil, err
	}
	if o.IP == "" {
		o.IP = DefaultFrontendIP
	}
	if o.Shards < 1 {
		return nil, errors.New("devserver: a cluster needs at least one history shard")
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	p, err := NodePorts(o.BasePort, o.Node)
	if err != nil {
		return nil, err
	}
	for _, port := range []int{p.Frontend, p.FrontendHTTP, p.History, p.Matching, p.Worker, p.FrontendRing, p.HistoryRing, p.MatchingRing, p.WorkerRing} {
		if err := checkPortFree(o.IP, port); err != nil {
			return nil, err
		}
	}
	first, _ := NodePorts(o.BasePort, 1)
	logger, level := quietLogger(o.Logger)
	if o.Verbose != nil {
		level.Set(*o.Verbose)
	}
	logger = logger.With("node", o.Node)
	conf := nodeConfig(o, p, first)
	authorizer, err := authorization.GetAuthorizerFromConfig(&conf.Global.Authorization)
	if err != nil {
		return nil, err
	}
	ts, err := temporal.NewServer(
		temporal.WithConfig(conf),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithLogger(serverLogger{l: logger}),
		temporal.WithAuthorizer(authorizer),
		temporal.WithDynamicConfigClient(dynamicConfig()),
	)
	if err != nil {
		return nil, fmt.Errorf("devserver: building node %d: %w", o.Node, err)
	}
	if err := ts.Start(); err != nil {
		return nil, fmt.Errorf("devserver: starting node %d: %w", o.Node, err)
	}
	n := &Node{server: ts, frontend: hostPort(o.IP, p.Frontend), logLevel: level}
	if err := waitHealthy(ctx, n.frontend, logger); err != nil {
		level.Set(slog.LevelError + 100)
		return nil, errors.Join(err, ts.Stop())
	}
	return n, nil
}

// nodeConfig is the server configuration of one node: the official
// development-postgres12.yaml, with this node's ports and no static hosts.
func nodeConfig(o NodeOptions, p, first Ports) *config.Config {
	var conf config.Config
	conf.Global.Membership.MaxJoinDuration = 30 * time.Second
	conf.Global.Membership.BroadcastAddress = o.IP
	conf.Persistence.DefaultStore = "postgres-default"
	conf.Persistence.VisibilityStore = "postgres-visibility"
	conf.Persistence.NumHistoryShards = int32(o.Shards)
	conf.Persistence.DataStores = map[string]config.DataStore{
		"postgres-default":    {SQL: o.Store.sql(o.Store.Database)},
		"postgres-visibility": {SQL: o.Store.sql(o.Store.VisibilityDatabase)},
	}
	// The cluster's address in its metadata is node 1's frontend on every
	// node: a node that announced its own would rewrite the record at each
	// start.
	conf.ClusterMetadata = &cluster.Config{
		FailoverVersionIncrement: 10,
		MasterClusterName:        pgClusterName,
		CurrentClusterName:       pgClusterName,
		ClusterInformation: map[string]cluster.ClusterInformation{pgClusterName: {
			Enabled: true, InitialFailoverVersion: 1,
			RPCAddress:  hostPort(o.IP, first.Frontend),
			HTTPAddress: hostPort(o.IP, first.FrontendHTTP),
		}},
	}
	conf.DCRedirectionPolicy.Policy = "noop"
	svc := func(grpc, ring int) config.Service {
		var s config.Service
		s.RPC.GRPCPort, s.RPC.MembershipPort, s.RPC.BindOnIP = grpc, ring, o.IP
		return s
	}
	frontend := svc(p.Frontend, p.FrontendRing)
	frontend.RPC.HTTPPort = p.FrontendHTTP
	conf.Services = map[string]config.Service{
		string(primitives.FrontendService): frontend,
		string(primitives.HistoryService):  svc(p.History, p.HistoryRing),
		string(primitives.MatchingService): svc(p.Matching, p.MatchingRing),
		string(primitives.WorkerService):   svc(p.Worker, p.WorkerRing),
	}
	conf.Archival.History.State = "disabled"
	conf.Archival.Visibility.State = "disabled"
	conf.NamespaceDefaults.Archival.History.State = "disabled"
	conf.NamespaceDefaults.Archival.Visibility.State = "disabled"
	// The node's own frontend: its worker service (system workflows) and
	// internal clients call it.
	conf.PublicClient.HostPort = hostPort(o.IP, p.Frontend)
	return &conf
}

// waitHealthy polls the frontend's gRPC health check (what `temporal
// operator cluster health` asks) until it answers SERVING or ctx ends.
func waitHealthy(ctx context.Context, addr string, logger *slog.Logger) error {
	var last error
	for {
		c, err := client.DialContext(ctx, client.Options{HostPort: addr, Namespace: "temporal-system", Logger: sdklog.NewStructuredLogger(logger)})
		if err == nil {
			_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
			c.Close()
			if err == nil {
				return nil
			}
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("devserver: frontend %s not healthy: %w (last error: %v)", addr, ctx.Err(), last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// FrontendAddress is the host:port of this node's frontend.
func (n *Node) FrontendAddress() string { return n.frontend }

// Stop leaves the membership ring and stops the services; the cluster's
// other nodes take its shards over.
func (n *Node) Stop() error {
	n.logLevel.Set(slog.LevelError)
	return n.server.Stop()
}
