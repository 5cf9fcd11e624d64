// Package app wires Jangada's parts into running processes: the API (HTTP
// and WebSocket listeners), the Temporal worker, or both in one process. The
// commands, the integration tests and the load tool all build it the same way.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/api"
	"github.com/jangada/jangada/codec"
	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/dispatch"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/sandbox"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/webhook"
	"github.com/jangada/jangada/worker"
	"github.com/jangada/jangada/workflows"
	"github.com/jangada/jangada/ws"
)

// LaunchSweepInterval is how often a worker looks for workflow intents left
// by their requests (service.IntentSweeper).
const LaunchSweepInterval = 2 * time.Second

// Options selects what the process runs.
type Options struct {
	API    bool
	Worker bool
	// Temporal, when set, is used instead of dialling cfg.TemporalAddress.
	Temporal client.Client
	// CodecListener, in dev, is a loopback listener of its own on which the
	// payload codec endpoint is served to the Temporal Web UI, a browser
	// calling it from CodecUIOrigins (see startCodec). Never the merchant
	// port.
	CodecListener  net.Listener
	CodecUIOrigins []string
	// TracerProvider, when set (Tracing, from OTEL_*), traces each HTTP
	// request into its workflow and activities (the Temporal client New
	// dials carries the SDK's OpenTelemetry interceptor; a client brought
	// in Temporal does not) and into SQL. Nil: no tracing.
	TracerProvider trace.TracerProvider
}

// App is a running (or ready to run) Jangada process.
type App struct {
	Cfg      config.Config
	DB       *sqlx.DB
	Temporal client.Client
	Hub      *ws.Hub
	// Codec seals Temporal payloads (nil when the caller brought its own
	// client, or no key is configured).
	Codec   *codec.AESGCM
	API     *api.Server
	Charges *service.Charges
	// Starts starts charges' workflows beside the create's answer.
	Starts *service.LaunchPool
	// Transfers and Refunds are the money-out services.
	Transfers *service.Transfers
	Refunds   *service.Refunds
	// Schedules runs scheduled transfers (one workflow per schedule).
	Schedules *service.Schedules
	// Subaccounts is the sub-account product (synchronous moves, no workflow).
	Subaccounts *service.Subaccounts
	// PixAutomatic is PIX automatic (one workflow per authorization).
	PixAutomatic *service.PixAutomatic
	// Store: customers, products, coupons (synchronous, no workflow).
	Customers *service.Customers
	Products  *service.Products
	Coupons   *service.Coupons
	// Recharges and Crypto are the mobile recharge and crypto products.
	Recharges *service.Recharges
	Crypto    *service.Crypto
	// Subscriptions bill recurring cycles (one workflow per subscription).
	Subscriptions *service.Subscriptions
	// Bureau is the credit bureau (one workflow per dunning).
	Bureau *service.Bureau
	// IntentSweeper (worker processes) starts the workflows of committed
	// resources whose request did not.
	IntentSweeper *service.IntentSweeper
	// Billings is the billing product (boleto, cards, PIX billings).
	Billings *service.Billings

	// Dispatcher (worker processes) starts webhook deliveries; Tail (API
	// processes) feeds this process's hub. Both read the outbox.
	Dispatcher *dispatch.Dispatcher
	Tail       *dispatch.Tail
	// Watchers (API processes) wake the hosted checkout pages' event
	// streams from the tail.
	Watchers *dispatch.Watchers
	// budgets are the rate limits and caps (app/budgets.go).
	budgets budgets
	// keyAuth resolves the API's keys and writes their last uses (API
	// processes).
	keyAuth *service.Auth
	// Notifier tells other processes' outbox readers of this process's
	// commits (one NOTIFY per burst, outside the business transactions).
	Notifier *dispatch.Notifier

	// lanes warm the group commits' connections at Start.
	lanes     []func(context.Context) error
	opts      Options
	origin    string // this process's id in event notifications
	unhook    func()
	stopBg    context.CancelFunc
	bg        sync.WaitGroup
	ownClient bool
	worker    sdkworker.Worker
	hooks     sdkworker.Worker
	servers   []*http.Server
	// HTTPAddr and WSAddr are the bound addresses once started; AdminAddr
	// that of the operators' listener (empty when cfg.AdminAddr is).
	HTTPAddr, WSAddr, AdminAddr string
}

// New connects to PostgreSQL (creating and migrating the database) and to
// Temporal, and builds the requested parts.
func New(ctx context.Context, cfg config.Config, opts Options) (*App, error) {
	if err := db.EnsureDatabase(ctx, cfg.DatabaseURL); err != nil {
		return nil, err
	}
	var dbOpts []db.OpenOption
	if opts.TracerProvider != nil {
		dbOpts = append(dbOpts, db.WithTracing(opts.TracerProvider))
	}
	d, err := db.Open(ctx, cfg.DatabaseURL, dbOpts...)
	if err != nil {
		return nil, err
	}
	countEvents()
	if err := db.Migrate(ctx, d); err != nil {
		d.Close()
		return nil, err
	}
	a := &App{Cfg: cfg, DB: d, opts: opts, Temporal: opts.Temporal, origin: domain.NewID("proc_")}
	if a.Temporal == nil {
		opts := client.Options{HostPort: cfg.TemporalAddress, Namespace: cfg.TemporalNamespace, Logger: slogAdapter(),
			ConnectionOptions: client.ConnectionOptions{GrpcCompression: compressionFor(cfg.TemporalAddress)},
			// Observability: SDK metrics on /metrics; tracing when asked.
			MetricsHandler: sdkMetrics(), Interceptors: temporalInterceptors(opts.TracerProvider)}
		if cfg.PayloadKey != "" {
			c, err := codec.FromBase64(cfg.PayloadKey)
			if err != nil {
				d.Close()
				return nil, err
			}
			a.Codec = c
			opts.DataConverter, opts.FailureConverter = c.DataConverter(), c.FailureConverter()
		}
		a.Temporal, err = client.DialContext(ctx, opts)
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("temporal: %w", err)
		}
		a.ownClient = true
	}
	if err := worker.EnsureSearchAttributes(ctx, a.Temporal, cfg.TemporalNamespace); err != nil {
		slog.Warn("custom search attributes not registered", "error", err)
	}
	if a.budgets, err = newBudgets(cfg); err != nil {
		d.Close()
		return nil, err
	}
	a.Hub = ws.New(ws.Options{
		AuthFailures: a.budgets.requests, Slots: a.budgets.slots,
		Authenticate: a.authenticateWS, Owns: a.ownsPayment,
		Revoked: func(ctx context.Context, ids []string) ([]string, error) { return db.RevokedKeyIDs(ctx, d, ids) },
		RecordAcks: func(ctx context.Context, acks []ws.Ack) error {
			rows := make([]db.WSAck, len(acks))
			for i, k := range acks {
				rows[i] = db.WSAck{EventID: k.EventID, APIKeyID: k.KeyID}
			}
			return db.InsertWSAcks(ctx, d, rows)
		},
		AuthTimeout: cfg.WSAuthTimeout, PingPeriod: cfg.WSPingPeriod, PongWait: cfg.WSPongWait,
		MessageRate: cfg.WSMessageRate, MessageBurst: cfg.WSMessageBurst,
		MaxPerIP: cfg.WSMaxPerAddress, MaxPerKey: cfg.WSMaxPerKey, ClientIP: trustedProxies(cfg).ClientIP,
	})
	retries := cfg.WebhookRetrySchedule
	if retries == nil {
		retries = workflows.DefaultWebhookRetries
	}
	if opts.Worker {
		a.Dispatcher = &dispatch.Dispatcher{DB: d, DSN: cfg.DatabaseURL, Temporal: a.Temporal, TaskQueue: cfg.WebhookQueue(),
			Retries: retries, PollInterval: cfg.EventPollInterval, Origin: a.origin}
	}
	if opts.API {
		// The tail feeds the WebSocket hub and the hosted checkout pages'
		// event streams.
		a.Watchers = &dispatch.Watchers{}
		publish := func(ev domain.Event) { a.Hub.Publish(ev); a.Watchers.Publish(ev) }
		a.Tail = &dispatch.Tail{DB: d, DSN: cfg.DatabaseURL, Publish: publish, KeyRevoked: a.Hub.CloseKey,
			PollInterval: cfg.EventPollInterval, Origin: a.origin}
	}
	// The processor adapter (only the sandbox exists; config refuses others)
	// and the inbox its notices arrive at.
	inbox := &service.Inbox{DB: d, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue, PublicURL: cfg.PublicURL}
	sbx := &sandbox.Sandbox{Inbox: inbox, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue}
	if cfg.SandboxAutoSettle {
		sbx.SettleAfter = cfg.SandboxSettle
	}
	var proc processor.Processor = sbx

	internal := a.useCases(proc)
	if opts.Worker {
		a.IntentSweeper = &service.IntentSweeper{DB: d, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue}
		a.worker = worker.New(a.Temporal, cfg.TaskQueue, worker.Deps{
			Activities: a.activities(activities.Base{DB: d, PublicURL: cfg.PublicURL}, proc),
			Processor:  proc, // registers the sandbox's simulated network (processor.Registrar)
		})
		concurrency := cfg.WebhookConcurrency
		if concurrency <= 0 {
			concurrency = 64
		}
		a.hooks = worker.NewWebhooks(a.Temporal, cfg.WebhookQueue(), concurrency, &activities.Webhooks{
			DB: d, Sender: webhook.NewSender(cfg.WebhookTimeout, cfg.WebhookAllowPrivate), PerEndpoint: cfg.WebhookPerEndpoint,
		})
	}
	if opts.API {
		a.API = api.New(a.apiDeps(sbx, internal))
	}
	return a, nil
}

// publish learns of events committed in this process (db.OnEventsCommitted).
// The WebSocket tail takes those of its own pool as they are
// (Tail.Committed: the frame leaves as the payment commits, and the tail's
// next read passes over them), so it is woken only when it could not take
// them (another pool's seqs, as another process's, are read); the webhook
// dispatcher, here, and the readers of the other processes, through the
// Notifier, are woken to read them from the table. Nothing is delivered
// twice or out of order.
func (a *App) publish(d *sqlx.DB, evs []domain.Event) {
	if a.Tail != nil && (d != a.DB || !a.Tail.Committed(evs)) {
		a.Tail.Wake()
	}
	if a.Dispatcher != nil {
		a.Dispatcher.Wake()
	}
	a.Notifier.Poke()
}

func (a *App) authenticateWS(ctx context.Context, secret, ip string) (domain.APIKey, error) {
	k, err := (&service.Auth{DB: a.DB}).KeyBySecret(ctx, secret)
	if db.Unavailable(err) {
		// The gateway answers 503 and spends no failure budget.
		return k, fmt.Errorf("%w: %v", domain.ErrUnavailable, err)
	}
	if err != nil {
		return k, err
	}
	if !k.AllowsIP(ip) {
		return k, domain.Forbidden("address not allowed for this key")
	}
	return k, nil
}

func (a *App) ownsPayment(ctx context.Context, accountID, paymentID string) bool {
	_, err := db.GetTransaction(ctx, a.DB, accountID, paymentID, domain.TypePixIn, domain.TypePixOut)
	return err == nil
}

// workerReady checks that some worker polls each task queue: money and
// webhook delivery.
func (a *App) workerReady(ctx context.Context) error {
	for _, queue := range []string{a.Cfg.TaskQueue, a.Cfg.WebhookQueue()} {
		resp, err := a.Temporal.WorkflowService().DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{
			Namespace: a.Cfg.TemporalNamespace, TaskQueue: &taskqueue.TaskQueue{Name: queue, Kind: enums.TASK_QUEUE_KIND_NORMAL},
			TaskQueueType: enums.TASK_QUEUE_TYPE_WORKFLOW,
		})
		if err != nil {
			return err
		}
		if len(resp.GetPollers()) == 0 {
			return errors.New("no worker polls task queue " + queue)
		}
	}
	return nil
}
