package devserver

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/internal/freeport"
)

const (
	testNamespace = "default"
	testQueue     = "devserver-test"
)

var jangadaAttrs = map[string]enums.IndexedValueType{
	"JangadaAccountId":  enums.INDEXED_VALUE_TYPE_KEYWORD,
	"JangadaStatus":     enums.INDEXED_VALUE_TYPE_KEYWORD,
	"JangadaResourceId": enums.INDEXED_VALUE_TYPE_KEYWORD,
	"JangadaAmount":     enums.INDEXED_VALUE_TYPE_DOUBLE,
}

func greetWorkflow(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var out string
	err := workflow.ExecuteActivity(ctx, greetActivity, name).Get(ctx, &out)
	return out, err
}

func greetActivity(_ context.Context, name string) (string, error) {
	return "hello " + name, nil
}

func testFreePort(t *testing.T) int {
	t.Helper()
	p, err := freeport.Pick(DefaultFrontendIP)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testLogger writes to stderr rather than t.Log: server goroutines may still
// log briefly after Stop, and t.Log panics once the test has returned.
func testLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, nil))
}

func dial(t *testing.T, s *Server) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{
		HostPort:  s.FrontendAddress(),
		Namespace: testNamespace,
		Logger:    sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))),
	})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	return c
}

func startServer(t *testing.T, o Options) *Server {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a Temporal dev server: skipped in -short mode (make unit)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	began := time.Now()
	s, err := Start(ctx, o)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Logf("server up at %s (UI %q) in %v", s.FrontendAddress(), s.UIURL(), time.Since(began).Round(time.Millisecond))
	return s
}

func checkSearchAttributes(t *testing.T, c client.Client, want map[string]enums.IndexedValueType) {
	t.Helper()
	resp, err := c.OperatorService().ListSearchAttributes(context.Background(),
		&operatorservice.ListSearchAttributesRequest{Namespace: testNamespace})
	if err != nil {
		t.Fatalf("ListSearchAttributes: %v", err)
	}
	for name, typ := range want {
		if got, ok := resp.GetCustomAttributes()[name]; !ok || got != typ {
			t.Errorf("search attribute %s = %v (present %v), want %v", name, got, ok, typ)
		}
	}
}

func TestServerLifecycle(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "nested", "data") // exercises MkdirAll
	opts := Options{
		DataDir:          dataDir,
		Namespace:        testNamespace,
		Port:             testFreePort(t),
		UIPort:           testFreePort(t),
		SearchAttributes: jangadaAttrs,
		Logger:           testLogger(),
	}

	s := startServer(t, opts)
	t.Cleanup(func() { _ = s.Stop() })
	if _, err := os.Stat(filepath.Join(dataDir, dbFileName)); err != nil {
		t.Fatalf("database file: %v", err)
	}

	c := dial(t, s)
	defer c.Close()
	w := worker.New(c, testQueue, worker.Options{})
	w.RegisterWorkflow(greetWorkflow)
	w.RegisterActivity(greetActivity)
	if err := w.Start(); err != nil {
		t.Fatalf("worker start: %v", err)
	}
	defer w.Stop()

	checkSearchAttributes(t, c, jangadaAttrs)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:        "devserver-test-1",
		TaskQueue: testQueue,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			temporal.NewSearchAttributeKeyKeyword("JangadaAccountId").ValueSet("acc_1"),
			temporal.NewSearchAttributeKeyKeyword("JangadaStatus").ValueSet("pending"),
			temporal.NewSearchAttributeKeyFloat64("JangadaAmount").ValueSet(12.5),
		),
	}, greetWorkflow, "jangada")
	if err != nil {
		t.Fatalf("ExecuteWorkflow: %v", err)
	}
	var greeting string
	if err := run.Get(ctx, &greeting); err != nil {
		t.Fatalf("workflow result: %v", err)
	}
	if greeting != "hello jangada" {
		t.Fatalf("greeting = %q", greeting)
	}

	// Visibility is written asynchronously; poll briefly.
	var found bool
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Namespace: testNamespace,
			Query:     `JangadaAccountId = "acc_1"`,
		})
		if err != nil {
			t.Fatalf("ListWorkflow: %v", err)
		}
		for _, e := range resp.GetExecutions() {
			if e.GetExecution().GetWorkflowId() == run.GetID() {
				found = true
			}
		}
		if found {
			break
		}
	}
	if !found {
		t.Fatal("workflow not found by JangadaAccountId query")
	}

	resp, err := http.Get(s.UIURL() + "/")
	if err != nil {
		t.Fatalf("UI: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("UI status = %d", resp.StatusCode)
	}

	w.Stop()
	c.Close()
	if err := s.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}

	// Restart on the same store with one extra attribute: existing ones must
	// be accepted as-is, the new one added through the operator API, and the
	// earlier history must still be there.
	more := map[string]enums.IndexedValueType{"JangadaRetries": enums.INDEXED_VALUE_TYPE_INT}
	for k, v := range jangadaAttrs {
		more[k] = v
	}
	opts.SearchAttributes = more
	s2 := startServer(t, opts)
	t.Cleanup(func() { _ = s2.Stop() })
	c2 := dial(t, s2)
	defer c2.Close()

	checkSearchAttributes(t, c2, more)
	// Its own deadline: the restarted server's history shard is acquired
	// after Start returns, and the first read waits for it (a CI run under
	// load spent the rest of the first part's 20 s there).
	ctxRestart, cancelRestart := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancelRestart()
	iter := c2.GetWorkflowHistory(ctxRestart, run.GetID(), run.GetRunID(), false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var last enums.EventType
	var n int
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatalf("history after restart: %v", err)
		}
		last, n = ev.GetEventType(), n+1
	}
	if last != enums.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED {
		t.Fatalf("history after restart: %d events, last %v", n, last)
	}
	t.Logf("history after restart: %d events ending in %v", n, last)
	if err := s2.Stop(); err != nil {
		t.Fatalf("Stop after restart: %v", err)
	}

	// journal_mode=wal is persistent: SQLite records it in the header's
	// read/write format version bytes (offsets 18 and 19, value 2).
	f, err := os.Open(filepath.Join(dataDir, dbFileName))
	if err != nil {
		t.Fatal(err)
	}
	hdr := make([]byte, 20)
	_, err = io.ReadFull(f, hdr)
	f.Close()
	if err != nil || hdr[18] != 2 || hdr[19] != 2 {
		t.Fatalf("database not in WAL mode: header %v, %v", hdr[18:20], err)
	}

	// An attribute cannot change type in place; Start must say so and
	// leave nothing running.
	opts.SearchAttributes = map[string]enums.IndexedValueType{"JangadaAmount": enums.INDEXED_VALUE_TYPE_KEYWORD}
	ctx3, cancel3 := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel3()
	if s3, err := Start(ctx3, opts); err == nil {
		_ = s3.Stop()
		t.Fatal("Start accepted a search attribute type change")
	} else if !strings.Contains(err.Error(), "type conflict") {
		t.Fatalf("unexpected error for type change: %v", err)
	}
	if err := checkPortFree(DefaultFrontendIP, opts.Port); err != nil {
		t.Fatalf("frontend port still held after failed Start: %v", err)
	}
}

func TestStartFailsOnBusyPort(t *testing.T) {
	l, err := net.Listen("tcp", net.JoinHostPort(DefaultFrontendIP, "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	busy := l.Addr().(*net.TCPAddr).Port

	for name, o := range map[string]Options{
		"frontend": {Port: busy},
		"ui":       {Port: testFreePort(t), UIPort: busy},
	} {
		o.DataDir, o.Namespace, o.Logger = t.TempDir(), testNamespace, testLogger()
		s, err := Start(context.Background(), o)
		if err == nil {
			_ = s.Stop()
			t.Fatalf("%s: Start succeeded on a busy port", name)
		}
		if !strings.Contains(err.Error(), "not available") {
			t.Errorf("%s: unexpected error: %v", name, err)
		}
	}
}

func TestOptionsValidation(t *testing.T) {
	for _, o := range []Options{
		{Namespace: "default"},
		{DataDir: "x"},
		{DataDir: "x", Namespace: "default", FrontendIP: "localhost"},
		{DataDir: "x", Namespace: "default", Port: 7233, UIPort: 7233},
	} {
		if _, err := o.withDefaults(); err == nil {
			t.Errorf("%+v: expected error", o)
		}
	}
	o, err := Options{DataDir: "x", Namespace: "default"}.withDefaults()
	if err != nil || o.Port != DefaultPort || o.FrontendIP != DefaultFrontendIP || o.UIPort != 0 {
		t.Errorf("defaults: %+v, %v", o, err)
	}
}

// TestInMemoryStore runs a workflow on the in-memory store (the shape of
// `temporal server start-dev` without a file): no DataDir, nothing written
// to disk, the namespace and search attributes registered.
func TestInMemoryStore(t *testing.T) {
	s := startServer(t, Options{InMemory: true, Namespace: testNamespace, Port: testFreePort(t),
		SearchAttributes: jangadaAttrs, Logger: testLogger()})
	t.Cleanup(func() { _ = s.Stop() })
	c := dial(t, s)
	defer c.Close()
	checkSearchAttributes(t, c, jangadaAttrs)
	w := worker.New(c, testQueue, worker.Options{})
	w.RegisterWorkflow(greetWorkflow)
	w.RegisterActivity(greetActivity)
	if err := w.Start(); err != nil {
		t.Fatalf("worker start: %v", err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "devserver-memory-1", TaskQueue: testQueue}, greetWorkflow, "memória")
	if err != nil {
		t.Fatalf("ExecuteWorkflow: %v", err)
	}
	var greeting string
	if err := run.Get(ctx, &greeting); err != nil || greeting != "hello memória" {
		t.Fatalf("workflow result: %q %v", greeting, err)
	}
}
