// Package e2e proves Jangada end to end: HTTP requests against the real API,
// a real in-process Temporal server (temporaltest) and a real PostgreSQL.
// It is the only test package that links the Temporal server.
package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lib/pq"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/server/temporaltest"

	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/codec"
	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/internal/poll"
)

// server is one Temporal server shared by the package's tests.
var server *temporaltest.TestServer

// temporalClient is the package's Temporal client, with the payload codec;
// dataConverter reads payloads a test finds in a history.
var (
	temporalClient client.Client
	dataConverter  converter.DataConverter
	// payloadCodec opens a payload a test finds in a history.
	payloadCodec *codec.AESGCM
)

func TestMain(m *testing.M) {
	flag.Parse()
	// Every test here runs the app on PostgreSQL and a Temporal server (and
	// one drives chromium): under -short (make unit) none of them runs.
	if testing.Short() {
		fmt.Println("e2e: needs PostgreSQL and a Temporal server: skipped in -short mode (make unit)")
		os.Exit(0)
	}
	// The tests mostly wait (on Temporal, timers, webhooks), so by default
	// more of them run at once than the machine has cores; -parallel given
	// on the command line still decides.
	if !flagSet("test.parallel") && runtime.GOMAXPROCS(0) < minParallel {
		flag.Set("test.parallel", strconv.Itoa(minParallel))
	}
	// The apps log as the binary does, into logs (a test may grep them).
	slog.SetDefault(app.NewLogger(logs, slog.LevelDebug))
	server = temporaltest.NewServer()
	// Every app in the package talks to Temporal the way production does:
	// with its payloads sealed by the payload codec.
	c, err := codec.FromBase64(codec.NewKey())
	if err != nil {
		panic(err)
	}
	dataConverter, payloadCodec = c.DataConverter(), c
	temporalClient, err = client.Dial(client.Options{
		HostPort: server.GetFrontendHostPort(), Namespace: server.GetDefaultNamespace(), DataConverter: dataConverter,
		FailureConverter: c.FailureConverter(),
	})
	if err != nil {
		panic(err)
	}
	code := m.Run()
	stopShared()
	temporalClient.Close()
	server.Stop()
	os.Exit(code)
}

// minParallel is the default -parallel of the package (see TestMain).
const minParallel = 4

func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// shared is the one Jangada (API + worker, one database, one task queue)
// that most tests use at the same time (sharedEnv), started by the first of
// them. They stay independent because each creates its own merchant
// accounts through the admin API and looks only at those. A test that
// changes the configuration, stops or adds a process, or counts rows of
// the whole database starts its own app instead (newEnv, startApp).
var shared struct {
	once sync.Once
	app  *app.App
	err  error
	drop func()
}

func sharedApp() (*app.App, error) {
	shared.once.Do(func() {
		dsn, drop, err := createDatabase()
		if err != nil {
			shared.err = err
			return
		}
		shared.drop = drop
		cfg := baseConfig(dsn)
		// Requests without a valid key all come from 127.0.0.1 and share one
		// per-IP budget in a process: on the shared app that budget must not
		// couple the tests (TestEveryRouteRequiresKeyAndPermission alone
		// makes ~90 such requests a run). TestRateLimit, which is about that
		// budget, runs its own app with the default of 100.
		cfg.RateLimitPerMinute = 1_000_000
		a, err := app.New(context.Background(), cfg, app.Options{API: true, Worker: true, Temporal: temporalClient})
		if err != nil {
			shared.err = err
			return
		}
		limitIdle(a)
		if err := a.Start(); err != nil {
			shutdown(a)
			shared.err = err
			return
		}
		shared.app = a
	})
	return shared.app, shared.err
}

// stopShared shuts the shared app down and drops its database.
func stopShared() {
	if shared.app != nil {
		shutdown(shared.app)
	}
	if shared.drop != nil {
		shared.drop()
	}
}

func shutdown(a *app.App) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a.Shutdown(ctx)
}

// createDatabase creates an empty database for the shared app and returns
// its URL and what drops it (dbtest.NewURL ties the drop to one test).
func createDatabase() (string, func(), error) {
	u, err := url.Parse(dbtest.ServerURL())
	if err != nil {
		return "", nil, err
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := "jangada_test_shared_" + hex.EncodeToString(b)
	admin, err := sql.Open("postgres", u.String())
	if err != nil {
		return "", nil, err
	}
	if _, err := admin.Exec("CREATE DATABASE " + pq.QuoteIdentifier(name)); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create shared test database: %w", err)
	}
	drop := func() {
		admin.Exec("DROP DATABASE IF EXISTS " + pq.QuoteIdentifier(name) + " WITH (FORCE)")
		admin.Close()
	}
	u.Path = "/" + name
	return u.String(), drop, nil
}

// sharedEnv is the shared app seen from the calling test: requests,
// failures and cleanups belong to t.
func sharedEnv(t *testing.T) *env {
	t.Helper()
	a, err := sharedApp()
	if err != nil {
		t.Fatalf("shared app: %v", err)
	}
	// Tests start once the workers poll their task queues: readiness is a
	// condition to wait for, not a race with the first test.
	eventuallyWithin(t, 20*time.Second, "the shared app's workers to poll", func() bool {
		return a.API.WorkerReady(context.Background()) == nil
	})
	return envOf(t, a)
}

const adminToken = "test-admin-token"

var queueSeq atomic.Int64

// env is a running Jangada (API + worker) as one test uses it: its own app
// (newEnv, startApp) or the shared one (sharedEnv).
type env struct {
	t    *testing.T
	app  *app.App
	base string
	// adminBase is the operators' listener, the admin API's only home.
	adminBase string
	ws        string
	// negatives says the test sends bad input on purpose (a hostile-input
	// test): the OpenAPI check skips its requests, even those the server
	// accepts (a repeated page=1&page=x reads the first), and still checks
	// every answer.
	negatives bool
}

// testConfig is the configuration of a test's own app, on its own database.
func testConfig(t *testing.T) config.Config {
	return baseConfig(dbtest.NewURL(t))
}

func baseConfig(dsn string) config.Config {
	return config.Config{
		HTTPAddr: "127.0.0.1:0", WSAddr: "127.0.0.1:0", AdminAddr: "127.0.0.1:0", DatabaseURL: dsn,
		TemporalNamespace: server.GetDefaultNamespace(), TaskQueue: fmt.Sprintf("jangada-test-%d", queueSeq.Add(1)),
		AdminToken: adminToken, PublicURL: "http://jangada.test", Processor: "sandbox",
		RateLimitPerMinute: 100, AdminRateLimitPerMinute: 1_000_000, PageViewsPerMinute: 1_000_000, PageCheckoutsPerMinute: 1_000_000,
		LoginFailuresPerAddress: 1_000_000, // parallel tests share 127.0.0.1; the per-e-mail budget stays 10
		DashboardSignup:         true, SignupsPerAddress: 1_000_000,
		ShutdownTimeout: 5 * time.Second,
		HTTPReadTimeout: 30 * time.Second, HTTPWriteTimeout: 60 * time.Second, HTTPIdleTimeout: 2 * time.Minute,
		KeyCacheTTL: 2 * time.Second, // the default (JANGADA_KEY_CACHE_TTL): the tests run with resolved keys kept
		LedgerBatch: 32,              // the default (JANGADA_LEDGER_BATCH): money moves go through the group commits
	}
}

// newEnv starts API and worker in one process.
func newEnv(t *testing.T) *env {
	t.Helper()
	return startApp(t, testConfig(t), app.Options{API: true, Worker: true})
}

func startApp(t *testing.T, cfg config.Config, opts app.Options) *env {
	t.Helper()
	opts.Temporal = temporalClient
	a, err := app.New(context.Background(), cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	limitIdle(a)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { shutdown(a) })
	return envOf(t, a)
}

// limitIdle keeps few idle database connections per app: the apps of
// parallel tests share one PostgreSQL (max_connections 100 by default), and
// connections opened by one test's burst of requests must not stay open,
// idle, while other tests need theirs. Open connections are not limited.
func limitIdle(a *app.App) { a.DB.SetMaxIdleConns(4) }

func envOf(t *testing.T, a *app.App) *env {
	return &env{t: t, app: a, base: "http://" + a.HTTPAddr, adminBase: "http://" + a.AdminAddr, ws: "ws://" + a.WSAddr + "/v1"}
}

// resp is a decoded envelope.
type resp struct {
	Status  int             `json:"-"`
	Header  http.Header     `json:"-"`
	Success bool            `json:"success"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	ReqID   string          `json:"requestId"`
}

// into decodes the envelope's data.
func (r resp) into(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("decode %s: %v", r.Data, err)
	}
}

// m decodes the data as a generic object.
func (r resp) m(t *testing.T) map[string]any {
	var v map[string]any
	r.into(t, &v)
	return v
}

// request sends one request to the API, checked against the OpenAPI
// documents (env.httpClient), and decodes the envelope.
func (e *env) request(method, path string, headers map[string]string, body any) resp {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	default:
		raw, _ := json.Marshal(b)
		rd = bytes.NewReader(raw)
	}
	base := e.base
	if strings.HasPrefix(path, "/admin/") { // only on the operators' listener
		base = e.adminBase
	}
	req, _ := http.NewRequest(method, base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := e.httpClient().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := resp{Status: res.StatusCode, Header: res.Header}
	if err := json.Unmarshal(raw, &r); err != nil && res.Header.Get("Content-Type") == "application/json; charset=utf-8" {
		e.t.Fatalf("%s %s: bad JSON %q", method, path, raw)
	}
	return r
}

// lenient is e for requests that use the server's leniency beyond the
// document (an enum value in another case, which the document lists once,
// in its canonical case): their answers are checked, not their requests.
func (e *env) lenient() *env {
	l := *e
	l.negatives = true
	return &l
}

// call is a merchant request with key.
func (e *env) call(key, method, path string, body any) resp {
	e.t.Helper()
	return e.request(method, path, map[string]string{"X-API-Key": key}, body)
}

// admin is an admin API request.
func (e *env) admin(method, path string, body any) resp {
	e.t.Helper()
	r := e.request(method, "/admin/v1"+path, map[string]string{"X-Admin-Token": adminToken}, body)
	return r
}

// merchant creates an account and a key with the given permissions.
type merchant struct {
	ID, Email, Key, KeyID string
}

var merchantSeq atomic.Int64

func (e *env) merchant(perms ...string) merchant {
	e.t.Helper()
	if len(perms) == 0 {
		perms = []string{"*"}
	}
	n := merchantSeq.Add(1)
	email := fmt.Sprintf("merchant%d-%d@example.com", n, time.Now().UnixNano())
	r := e.admin("POST", "/accounts", map[string]any{"name": fmt.Sprintf("Loja %d", n), "email": email, "document": "11.222.333/0001-81"})
	if r.Status != 200 {
		e.t.Fatalf("create account: %d %s", r.Status, r.Message)
	}
	id := r.m(e.t)["id"].(string)
	k := e.admin("POST", "/accounts/"+id+"/keys", map[string]any{"name": "test", "permissions": perms, "rateLimitPerMinute": 10000})
	if k.Status != 200 {
		e.t.Fatalf("create key: %d %s", k.Status, k.Message)
	}
	km := k.m(e.t)
	return merchant{ID: id, Email: email, Key: km["key"].(string), KeyID: km["id"].(string)}
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	eventuallyWithin(t, 20*time.Second, what, cond)
}

// eventuallyWithin is eventually with its own deadline.
func eventuallyWithin(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	poll.Until(t, within, what, cond)
}

// verifyLedger fails the test on any ledger invariant violation. It is safe
// on the shared database while other tests post: db.VerifyLedger checks
// invariants of every committed posting (each ledger transaction sums to
// zero, each balance equals its entries, no forbidden negative balance),
// each in one statement and so on one snapshot, and a posting commits its
// entries and balances together.
func (e *env) verifyLedger() {
	e.t.Helper()
	problems, err := db.VerifyLedger(context.Background(), e.app.DB)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, p := range problems {
		e.t.Error("ledger: " + p)
	}
}

// activityName is the name Temporal records for an activity method (its
// method name), so a test can find it in a workflow's history.
func activityName(fn any) string {
	name := runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
	return strings.TrimSuffix(name[strings.LastIndex(name, ".")+1:], "-fm")
}

// keyFor issues another key of m's account with the given permissions.
func (e *env) keyFor(m merchant, perms ...string) merchant {
	e.t.Helper()
	k := e.admin("POST", "/accounts/"+m.ID+"/keys", map[string]any{"name": "another", "permissions": perms, "rateLimitPerMinute": 10000})
	if k.Status != 200 {
		e.t.Fatalf("key: %d %s", k.Status, k.Message)
	}
	km := k.m(e.t)
	return merchant{ID: m.ID, Email: m.Email, Key: km["key"].(string), KeyID: km["id"].(string)}
}
