// Package config reads Jangada's runtime configuration from the environment
// (prefix JANGADA_), with the names and defaults fixed by CONTRACTS.md.
package config

import (
	"fmt"
	"time"

	"github.com/kelseyhightower/envconfig"

	"github.com/jangada/jangada/internal/clientip"
)

// Config is the whole runtime configuration of every Jangada process.
type Config struct {
	HTTPAddr string `envconfig:"HTTP_ADDR" default:":8080"`
	WSAddr   string `envconfig:"WS_ADDR" default:":8081"`
	// AdminAddr is the operators' listener: the admin API (only there,
	// never on the merchant port), /metrics and pprof; loopback by
	// default. Empty: no such listener, and no admin API (tests that
	// build Config).
	AdminAddr string `envconfig:"ADMIN_ADDR" default:"127.0.0.1:8082"`
	// TrustedProxies are the CIDRs of the load balancers and proxies whose
	// X-Forwarded-For is believed (comma-separated); empty trusts none,
	// and the client is the peer. The HTTP API, the admin API and the
	// WebSocket gateway all read the client's address through it.
	TrustedProxies    []string `envconfig:"TRUSTED_PROXIES"`
	DatabaseURL       string   `envconfig:"DATABASE_URL" default:"postgres://postgres@localhost:5432/jangada?sslmode=disable"`
	TemporalAddress   string   `envconfig:"TEMPORAL_ADDRESS"`
	TemporalNamespace string   `envconfig:"TEMPORAL_NAMESPACE" default:"default"`
	TaskQueue         string   `envconfig:"TASK_QUEUE" default:"jangada"`
	DevTemporalPort   int      `envconfig:"DEV_TEMPORAL_PORT" default:"7233"`
	DevTemporalUIPort int      `envconfig:"DEV_TEMPORAL_UI_PORT" default:"8233"`
	DataDir           string   `envconfig:"DATA_DIR" default:"./.data"`
	AdminToken        string   `envconfig:"ADMIN_TOKEN"`
	// PayloadKey (base64 of 32 bytes) seals every payload sent to Temporal;
	// `dev` makes one and keeps it in DATA_DIR/payload.key.
	PayloadKey        string        `envconfig:"PAYLOAD_KEY"`
	PublicURL         string        `envconfig:"PUBLIC_URL" default:"http://localhost:8080"`
	Processor         string        `envconfig:"PROCESSOR" default:"sandbox"`
	SandboxSettle     time.Duration `envconfig:"SANDBOX_SETTLE_DELAY" default:"2s"`
	SandboxAutoSettle bool          `envconfig:"SANDBOX_AUTO_SETTLE" default:"true"`
	// RateLimitPerMinute is the default budget of a key and of an anonymous IP.
	RateLimitPerMinute int `envconfig:"RATE_LIMIT_PER_MINUTE" default:"100"`
	// PageCheckoutsPerMinute is how many checkouts a payment link's hosted
	// pay page takes per client address and minute (0: 10).
	PageCheckoutsPerMinute int `envconfig:"PAGE_CHECKOUTS_PER_MINUTE" default:"10"`
	// PageViewsPerMinute is how many hosted pages (pay links, sessions,
	// slips, invoices) one client address may read per minute: a pay
	// link's page runs a score of queries (0: 300).
	PageViewsPerMinute int `envconfig:"PAGE_VIEWS_PER_MINUTE" default:"300"`
	// PageStreamsPerAddress caps the open session event streams of one
	// client address (each holds goroutines and wakes for up to 30 min;
	// 0: 20).
	PageStreamsPerAddress int `envconfig:"PAGE_STREAMS_PER_ADDRESS" default:"20"`
	// LoginFailuresPerEmail and LoginFailuresPerAddress are the failed
	// logins of the human pages allowed per e-mail and per client address
	// within 15 minutes; past them a login answers 429 with Retry-After.
	LoginFailuresPerEmail   int `envconfig:"LOGIN_FAILURES_PER_EMAIL" default:"10"`
	LoginFailuresPerAddress int `envconfig:"LOGIN_FAILURES_PER_ADDRESS" default:"100"`
	// DashboardSignup opens the dashboard's self-service sign-up (an
	// unverified account and its owner); jangada dev turns it on unless
	// set. SignupsPerAddress bounds the sign-ups of one client address in
	// an hour.
	DashboardSignup   bool `envconfig:"DASHBOARD_SIGNUP" default:"false"`
	SignupsPerAddress int  `envconfig:"SIGNUPS_PER_ADDRESS" default:"20"`
	// RedisURL (redis://host:port/db) makes every budget — requests per key
	// and per address, the admin API's, the pages', WebSocket caps and
	// authentication failures, login throttles — one budget shared by all
	// API processes; empty keeps each process's own (one process: make run).
	RedisURL string `envconfig:"REDIS_URL"`
	// RedisTimeout bounds each budget's call to Redis; past it the process
	// counts alone. APIReplicas is how many API processes share the
	// budgets: while Redis is away each counts 1/APIReplicas of each.
	RedisTimeout time.Duration `envconfig:"REDIS_TIMEOUT" default:"10ms"`
	APIReplicas  int           `envconfig:"API_REPLICAS" default:"1"`
	// RedisPrefix starts every budget's Redis key, keeping deployments
	// that share a Redis apart.
	RedisPrefix string `envconfig:"REDIS_PREFIX" default:"jangada:"`
	// AdminRateLimitPerMinute is the admin API's budget per client address
	// (0: DefaultAdminRateLimit), so that its token cannot be guessed at speed.
	AdminRateLimitPerMinute int `envconfig:"ADMIN_RATE_LIMIT_PER_MINUTE" default:"1200"`
	// WebhookAllowPrivate lets webhook deliveries reach loopback and private
	// addresses; the dev command turns it on, production keeps it off.
	WebhookAllowPrivate bool   `envconfig:"WEBHOOK_ALLOW_PRIVATE" default:"false"`
	LogLevel            string `envconfig:"LOG_LEVEL" default:"info"`
	// ShutdownTimeout bounds how long HTTP draining may take on SIGTERM.
	ShutdownTimeout time.Duration `envconfig:"SHUTDOWN_TIMEOUT" default:"15s"`
	// HTTPReadTimeout, HTTPWriteTimeout and HTTPIdleTimeout bound how long a
	// client of either listener may take to send a request, to read its
	// answer, and to keep an idle connection; a WebSocket clears them at the
	// upgrade and lives by its own heartbeat.
	HTTPReadTimeout  time.Duration `envconfig:"HTTP_READ_TIMEOUT" default:"30s"`
	HTTPWriteTimeout time.Duration `envconfig:"HTTP_WRITE_TIMEOUT" default:"60s"`
	HTTPIdleTimeout  time.Duration `envconfig:"HTTP_IDLE_TIMEOUT" default:"2m"`

	// WebhookRetrySchedule is the delays before each retry of a webhook
	// delivery that got no 2xx (1 + 5 attempts by default); it travels in
	// each delivery workflow's input.
	WebhookRetrySchedule []time.Duration `envconfig:"WEBHOOK_RETRY_SCHEDULE" default:"1m,5m,15m,1h,4h"`
	// WebhookTimeout bounds one delivery attempt (connect, send, answer).
	WebhookTimeout time.Duration `envconfig:"WEBHOOK_TIMEOUT" default:"10s"`
	// WebhookConcurrency bounds the delivery attempts a worker process makes
	// at once (its webhook worker's activity slots); WebhookPerEndpoint
	// bounds those to one endpoint, so one merchant's slow receivers cannot
	// take every slot.
	WebhookConcurrency int `envconfig:"WEBHOOK_CONCURRENCY" default:"64"`
	WebhookPerEndpoint int `envconfig:"WEBHOOK_PER_ENDPOINT" default:"4"`
	// EventPollInterval is how often outbox readers poll when no NOTIFY
	// wakes them (NOTIFY is the fast path, polling the guarantee).
	EventPollInterval time.Duration `envconfig:"EVENT_POLL_INTERVAL" default:"1s"`
	// KeyCacheTTL bounds how long an API process answers an API key from
	// what it resolved before (service.Auth); every change of a key or an
	// account drops them sooner, in every process. 0 reads every key.
	KeyCacheTTL time.Duration `envconfig:"KEY_CACHE_TTL" default:"2s"`
	// LedgerBatch bounds how many internal transfers, or sub-account moves,
	// one group-commit batch carries (db.GroupCommit, db.SubaccountGroup); 1
	// sends each alone, as one statement of its own (the bench's comparison,
	// or an operator's way back).
	LedgerBatch int `envconfig:"LEDGER_BATCH" default:"32"`
	// WebSocket protocol timings (the specification's values; shorter in tests).
	WSAuthTimeout time.Duration `envconfig:"WS_AUTH_TIMEOUT" default:"10s"`
	WSPingPeriod  time.Duration `envconfig:"WS_PING_PERIOD" default:"30s"`
	WSPongWait    time.Duration `envconfig:"WS_PONG_WAIT" default:"15s"`
	// WSMessageRate and WSMessageBurst bound client messages per connection.
	WSMessageRate  float64 `envconfig:"WS_MESSAGE_RATE" default:"20"`
	WSMessageBurst int     `envconfig:"WS_MESSAGE_BURST" default:"40"`
	// WSMaxPerAddress bounds the open WebSocket connections of one client
	// address (beyond: 429 before the upgrade); WSMaxPerKey those
	// authenticated with one API key (beyond: closed with 1008).
	WSMaxPerAddress int `envconfig:"WS_MAX_PER_ADDRESS" default:"100"`
	WSMaxPerKey     int `envconfig:"WS_MAX_PER_KEY" default:"100"`
}

// WebhookQueue is the webhook delivery task queue: deliveries run on their
// own queue and worker, apart from money.
func (c Config) WebhookQueue() string { return c.TaskQueue + "-webhooks" }

// DefaultAdminRateLimit is the admin API's budget per address and minute.
const DefaultAdminRateLimit = 1200

// MinAdminToken is the shortest admin token a server process accepts.
const MinAdminToken = 16

// RequireAdminToken refuses to serve the admin API without a real token:
// every process but `dev` (which makes one up and prints it) must be given
// JANGADA_ADMIN_TOKEN of at least MinAdminToken characters.
func (c Config) RequireAdminToken() error {
	if len(c.AdminToken) < MinAdminToken {
		return fmt.Errorf("config: JANGADA_ADMIN_TOKEN must be set to a secret of at least %d characters (only `dev` makes one up)", MinAdminToken)
	}
	return nil
}

// DefaultPublicURL is the public base of the HTTP API when
// JANGADA_PUBLIC_URL is not set (the tag's default above).
const DefaultPublicURL = "http://localhost:8080"

// DefaultAdminAddr is the operators' listener when JANGADA_ADMIN_ADDR is
// not set (the tag's default above, for the tools that call it).
const DefaultAdminAddr = "127.0.0.1:8082"

// RequirePayloadKey refuses to run a process without the payload key: its
// Temporal payloads would rest in clear (only `dev` makes one up).
func (c Config) RequirePayloadKey() error {
	if c.PayloadKey == "" {
		return fmt.Errorf("config: JANGADA_PAYLOAD_KEY must be set (base64 of 32 random bytes, the same in every api and worker process; `openssl rand -base64 32`)")
	}
	return nil
}

// Load reads the configuration from the environment.
func Load() (Config, error) {
	var c Config
	if err := envconfig.Process("jangada", &c); err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	if _, err := clientip.Parse(c.TrustedProxies); err != nil {
		return c, fmt.Errorf("config: JANGADA_TRUSTED_PROXIES: %w", err)
	}
	if c.WSMaxPerAddress < 1 || c.WSMaxPerKey < 1 {
		return c, fmt.Errorf("config: JANGADA_WS_MAX_PER_ADDRESS and JANGADA_WS_MAX_PER_KEY must be at least 1")
	}
	if c.Processor != "sandbox" {
		return c, fmt.Errorf("config: JANGADA_PROCESSOR=%q is not supported (only \"sandbox\")", c.Processor)
	}
	return c, nil
}
