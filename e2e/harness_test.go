// Package e2e proves Jangada end to end: HTTP requests against the real API,
// a real in-process Temporal server (temporaltest) and a real PostgreSQL.
// It is the only test package that links the Temporal server.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/server/temporaltest"

	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
)

// server is one Temporal server shared by the package's tests; each test
// gets its own database and task queue, so they stay independent.
var server *temporaltest.TestServer

func TestMain(m *testing.M) {
	server = temporaltest.NewServer()
	code := m.Run()
	server.Stop()
	os.Exit(code)
}

const adminToken = "test-admin-token"

var queueSeq atomic.Int64

// env is one running Jangada (API + worker) on its own database.
type env struct {
	t    *testing.T
	app  *app.App
	base string
	ws   string
}

func testConfig(t *testing.T) config.Config {
	return config.Config{
		HTTPAddr: "127.0.0.1:0", WSAddr: "127.0.0.1:0", DatabaseURL: dbtest.NewURL(t),
		TemporalNamespace: server.GetDefaultNamespace(), TaskQueue: fmt.Sprintf("jangada-test-%d", queueSeq.Add(1)),
		AdminToken: adminToken, PublicURL: "http://jangada.test", Processor: "sandbox",
		RateLimitPerMinute: 100, ShutdownTimeout: 5 * time.Second,
	}
}

// newEnv starts API and worker in one process.
func newEnv(t *testing.T) *env {
	t.Helper()
	return startApp(t, testConfig(t), app.Options{API: true, Worker: true})
}

func startApp(t *testing.T, cfg config.Config, opts app.Options) *env {
	t.Helper()
	opts.Temporal = server.GetDefaultClient()
	a, err := app.New(context.Background(), cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		a.Shutdown(ctx)
	})
	return &env{t: t, app: a, base: "http://" + a.HTTPAddr, ws: "ws://" + a.WSAddr + "/v1"}
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
	req, _ := http.NewRequest(method, e.base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
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
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// verifyLedger fails the test on any ledger invariant violation.
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
