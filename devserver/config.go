package devserver

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/membership/static"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/common/primitives"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"

	"github.com/jangada/jangada/internal/freeport"
)

const (
	storeName   = "sqlite-default"
	clusterName = "active"
)

// prepareStore creates the data dir, the SQLite schema (first run only) and
// the namespace (if missing) before the server starts. Registering the
// namespace offline, as the CLI does, avoids the window where workers would
// see "namespace not found" and lets a fresh store get its search attributes
// without a round-trip through the operator API.
func prepareStore(o Options) (*config.SQL, error) {
	if o.InMemory {
		return prepareMemoryStore(o)
	}
	if err := os.MkdirAll(o.DataDir, 0o755); err != nil {
		return nil, fmt.Errorf("devserver: creating data dir: %w", err)
	}
	dir, err := filepath.Abs(o.DataDir)
	if err != nil {
		return nil, fmt.Errorf("devserver: resolving data dir: %w", err)
	}
	dbFile := filepath.Join(dir, dbFileName)

	sqlConf := &config.SQL{
		PluginName:   sqliteplugin.PluginName,
		DatabaseName: dbFile,
		ConnectAttributes: map[string]string{
			"mode": "rwc",
			// WAL plus synchronous=normal skips an fsync per commit, roughly
			// quadrupling throughput; a crash can lose the last few
			// transactions but never corrupts the file, fine for dev.
			"journal_mode": "wal",
			"synchronous":  "normal",
		},
	}

	if _, err := os.Stat(dbFile); os.IsNotExist(err) {
		if err := sqliteschema.SetupSchema(sqlConf); err != nil {
			// Leave no half-initialised file behind, or the next start
			// would skip schema setup and fail obscurely.
			for _, suffix := range []string{"", "-wal", "-shm"} {
				_ = os.Remove(dbFile + suffix)
			}
			return nil, fmt.Errorf("devserver: setting up SQLite schema: %w", err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("devserver: checking database file: %w", err)
	}

	ns, err := sqliteschema.NewNamespaceConfig(clusterName, o.Namespace, false, o.SearchAttributes)
	if err != nil {
		return nil, fmt.Errorf("devserver: namespace config: %w", err)
	}
	if err := sqliteschema.CreateNamespaces(sqlConf, ns); err != nil {
		return nil, fmt.Errorf("devserver: registering namespace %q: %w", o.Namespace, err)
	}
	return sqlConf, nil
}

// prepareMemoryStore is the store of `temporal server start-dev` without a
// file: an in-memory SQLite database under a random name, with a shared
// cache (the plugin creates the schema when it first connects), and the
// namespace registered before the server starts.
func prepareMemoryStore(o Options) (*config.SQL, error) {
	sqlConf := &config.SQL{
		PluginName:        sqliteplugin.PluginName,
		DatabaseName:      "jangada-" + primitives.NewUUID().String(),
		ConnectAttributes: map[string]string{"mode": "memory", "cache": "shared"},
	}
	ns, err := sqliteschema.NewNamespaceConfig(clusterName, o.Namespace, false, o.SearchAttributes)
	if err != nil {
		return nil, fmt.Errorf("devserver: namespace config: %w", err)
	}
	if err := sqliteschema.CreateNamespaces(sqlConf, ns); err != nil {
		return nil, fmt.Errorf("devserver: registering namespace %q: %w", o.Namespace, err)
	}
	return sqlConf, nil
}

// servicePorts are the gRPC ports of the four services. Only the frontend
// is user-facing; the others are picked at random on each start since nothing
// outside the process addresses them.
type servicePorts struct {
	frontend, frontendHTTP, history, matching, worker int
}

func pickPorts(o Options) (servicePorts, error) {
	p := servicePorts{frontend: o.Port}
	for _, dst := range []*int{&p.frontendHTTP, &p.history, &p.matching, &p.worker} {
		port, err := freeport.Pick(o.FrontendIP)
		if err != nil {
			return p, err
		}
		*dst = port
	}
	return p, nil
}

func hostPort(ip string, port int) string {
	return net.JoinHostPort(ip, strconv.Itoa(port))
}

// buildServerConfig mirrors the CLI's dev server config: one shard, static
// membership, archival off, SQLite for both the default and visibility store
// (which is what makes custom search attributes work without Elasticsearch).
func buildServerConfig(o Options, sqlConf *config.SQL, p servicePorts) *config.Config {
	var conf config.Config
	conf.Global.Membership.MaxJoinDuration = 30 * time.Second
	conf.Global.Membership.BroadcastAddress = o.FrontendIP

	conf.Persistence.DefaultStore = storeName
	conf.Persistence.VisibilityStore = storeName
	conf.Persistence.NumHistoryShards = 1
	conf.Persistence.DataStores = map[string]config.DataStore{storeName: {SQL: sqlConf}}

	conf.ClusterMetadata = &cluster.Config{
		EnableGlobalNamespace:    false,
		FailoverVersionIncrement: 10,
		MasterClusterName:        clusterName,
		CurrentClusterName:       clusterName,
		ClusterInformation: map[string]cluster.ClusterInformation{
			clusterName: {
				Enabled:                true,
				InitialFailoverVersion: 1,
				RPCAddress:             hostPort(o.FrontendIP, p.frontend),
				HTTPAddress:            hostPort(o.FrontendIP, p.frontendHTTP),
				ClusterID:              primitives.NewUUID().String(),
			},
		},
	}
	conf.DCRedirectionPolicy.Policy = "noop"

	svc := func(port int) config.Service {
		var s config.Service
		s.RPC.GRPCPort = port
		s.RPC.BindOnIP = o.FrontendIP
		return s
	}
	frontend := svc(p.frontend)
	frontend.RPC.HTTPPort = p.frontendHTTP
	conf.Services = map[string]config.Service{
		string(primitives.FrontendService): frontend,
		string(primitives.HistoryService):  svc(p.history),
		string(primitives.MatchingService): svc(p.matching),
		string(primitives.WorkerService):   svc(p.worker),
	}

	conf.Archival.History.State = "disabled"
	conf.Archival.Visibility.State = "disabled"
	conf.NamespaceDefaults.Archival.History.State = "disabled"
	conf.NamespaceDefaults.Archival.Visibility.State = "disabled"
	conf.PublicClient.HostPort = hostPort(o.FrontendIP, p.frontend)
	return &conf
}

// buildServerOptions turns the config into temporal.ServerOptions.
func buildServerOptions(conf *config.Config, p servicePorts, logger serverLogger) ([]temporal.ServerOption, error) {
	authorizer, err := authorization.GetAuthorizerFromConfig(&conf.Global.Authorization)
	if err != nil {
		return nil, fmt.Errorf("devserver: authorizer: %w", err)
	}
	claimMapper, err := authorization.GetClaimMapperFromConfig(&conf.Global.Authorization, logger)
	if err != nil {
		return nil, fmt.Errorf("devserver: claim mapper: %w", err)
	}
	ip := conf.Global.Membership.BroadcastAddress
	host := func(port int) static.Hosts { return static.SingleLocalHost(hostPort(ip, port)) }

	dynConf := dynamicConfig()

	return []temporal.ServerOption{
		temporal.WithConfig(conf),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithStaticHosts(map[primitives.ServiceName]static.Hosts{
			primitives.FrontendService: host(p.frontend),
			primitives.MatchingService: host(p.matching),
			primitives.HistoryService:  host(p.history),
			primitives.WorkerService:   host(p.worker),
		}),
		temporal.WithLogger(logger),
		temporal.WithAuthorizer(authorizer),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper { return claimMapper }),
		temporal.WithDynamicConfigClient(dynConf),
	}, nil
}

// dynamicConfig is the dynamic configuration of every server this package
// starts, the SQLite dev server and the nodes of a PostgreSQL cluster alike,
// so that their figures compare.
func dynamicConfig() dynamicconfig.StaticClient {
	// Same tweaks as the CLI: a smaller mutable-state cache suits a
	// laptop, and the UI polls visibility far above the default 10 RPS.
	// One partition per task queue: partitions spread a queue over matching
	// hosts, and this server is one host. With the default four, a task
	// that lands in the backlog of a partition none of the worker's few
	// pollers is parked on waits for a poll to expire (one minute): the
	// bench saw charges settle 67 s after their payment.
	return dynamicconfig.StaticClient{
		dynamicconfig.HistoryCacheHostLevelMaxSize.Key():                 8096,
		dynamicconfig.FrontendMaxNamespaceVisibilityRPSPerInstance.Key(): 100,
		dynamicconfig.MatchingNumTaskqueueReadPartitions.Key():           1,
		dynamicconfig.MatchingNumTaskqueueWritePartitions.Key():          1,
		// `temporal server start-dev`'s own persistence budgets (its
		// defaultDynamicConfigValues): the defaults (2,000 and 9,000 per
		// second) throttle a busy dev server's store calls.
		dynamicconfig.FrontendPersistenceMaxQPS.Key(): 10000,
		dynamicconfig.HistoryPersistenceMaxQPS.Key():  45000,
		// The transfer queue (every new workflow task and non-eager
		// activity goes through it to matching) is read at most
		// transferProcessorMaxPollRPS times a second per history shard,
		// 20 by default. A cluster spreads its load over hundreds of
		// shards; this server has one, so past 20 reads a second every
		// workflow task waited for the next read, up to 50 ms: a bare
		// signal → activity took 50 ms at p50 instead of 7
		// (docs/performance.md). Reads at most 5 ms apart.
		dynamicconfig.TransferProcessorMaxPollRPS.Key(): 200,
	}
}
