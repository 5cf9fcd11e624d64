//go:build unix

package ws

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/poll"
)

// The benchmark runs in three kinds of process, all of them this test
// binary. The benchmark process only starts the others and reports. Each
// measured server runs in a process of its own (TestHelperIdleServer):
// one process serving both in turn would hand the second server the
// first one's dead goroutines (the runtime never frees a g) and warm
// pools, and make it look cheaper than it is. Each server process starts
// two client processes (TestHelperClients), so that neither the clients'
// memory nor their sockets count against the server's.

const (
	idleTarget = 20000 // connections the issue asks for
	// fdMargin is the descriptors a server process keeps beside its
	// connections: listener, stdio, pipes to its clients, netpoller.
	fdMargin        = 100
	idleRatioTarget = 1.2
	// clientProcs splits the connections: the client side of 20,000
	// sockets does not fit under one process's limit either.
	clientProcs = 2
	dialers     = 4 // concurrent dials per client process

	envRole    = "JANGADA_WS_HELPER" // "server" or "clients": a helper process
	envConns   = "JANGADA_WS_CONNS"  // override of the connection count
	envServer  = "JANGADA_WS_SERVER" // "bare" or "gateway"
	envURL     = "JANGADA_WS_URL"
	envAuth    = "JANGADA_WS_AUTH"        // "1": connections expect {event: authenticated}
	envProfile = "JANGADA_WS_HEAPPROFILE" // path prefix of the servers' heap profiles
)

// BenchmarkIdleConnections measures what one idle authenticated connection
// costs the gateway process — heap in use plus goroutine stacks, after a
// GC — against the same measurement of a bare coder/websocket server
// (memory_bare_test.go) holding the same connections from the same
// clients. The count is 20,000; one process cannot hold more
// sockets than RLIMIT_NOFILE allows, so the count is capped below that
// limit and the output says so. Run:
//
//	go test ./ws/ -run '^$' -bench IdleConnections -benchtime 1x -timeout 30m
//
// JANGADA_WS_CONNS overrides the count (still capped by the limit);
// JANGADA_WS_HEAPPROFILE=p writes each server's heap profile to p.bare
// and p.gateway.
func BenchmarkIdleConnections(b *testing.B) {
	hard := raiseFDLimit(b)
	target := idleTarget
	if v, err := strconv.Atoi(os.Getenv(envConns)); err == nil && v > 0 {
		target = v
	}
	n := min(target, int(hard)-fdMargin)
	if n <= 0 {
		b.Fatalf("RLIMIT_NOFILE %d leaves no room for connections", hard)
	}
	if n < target {
		fmt.Printf("connection count capped at %d (target %d) by the file-descriptor limit: "+
			"RLIMIT_NOFILE is %d (hard) per process, less %d for the server's listener and own files\n",
			n, target, hard, fdMargin)
	}
	for range b.N {
		bare := measureServer(b, "bare", n)
		gw := measureServer(b, "gateway", n)
		ratio := gw.perConn() / bare.perConn()
		b.ReportMetric(gw.perConn(), "gateway-B/conn")
		b.ReportMetric(bare.perConn(), "bare-B/conn")
		b.ReportMetric(ratio, "ratio")
		b.ReportMetric(float64(n), "conns")
		fmt.Printf("idle WebSocket memory at %d connections: gateway %.1f KB/conn, bare coder/websocket %.1f KB/conn, ratio %.2f (target <= %.1f)\n",
			n, gw.perConn()/1024, bare.perConn()/1024, ratio, idleRatioTarget)
	}
}

// idleResult is what n open connections added to a server process.
type idleResult struct {
	conns       int
	heap, stack int64 // bytes: HeapInuse and StackInuse growth
	goroutines  int
}

func (r idleResult) perConn() float64 { return float64(r.heap+r.stack) / float64(r.conns) }

// measureServer runs one server process and reads its result.
func measureServer(b *testing.B, kind string, n int) idleResult {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperIdleServer$", "-test.timeout=0")
	cmd.Env = append(os.Environ(), envRole+"=server", envServer+"="+kind, envConns+"="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("%s server process: %v\n%s", kind, err, out)
	}
	for line := range strings.Lines(string(out)) {
		rest, ok := strings.CutPrefix(line, "RESULT ")
		if !ok {
			continue
		}
		var r idleResult
		if _, err := fmt.Sscan(rest, &r.conns, &r.heap, &r.stack, &r.goroutines); err != nil {
			b.Fatalf("%s server process: %q: %v", kind, line, err)
		}
		if r.conns != n {
			b.Fatalf("%s server held %d connections, want %d", kind, r.conns, n)
		}
		fmt.Printf("  %-8s %d connections: heap %.1f KB/conn, stacks %.1f KB/conn, %.2f goroutines/conn\n", kind, r.conns,
			float64(r.heap)/float64(n)/1024, float64(r.stack)/float64(n)/1024, float64(r.goroutines)/float64(n))
		return r
	}
	b.Fatalf("%s server process printed no result:\n%s", kind, out)
	return idleResult{}
}

// TestHelperIdleServer is a server process of BenchmarkIdleConnections:
// it serves one kind of server, has client processes open the
// connections, and prints what they added to the heap and stacks.
func TestHelperIdleServer(t *testing.T) {
	if os.Getenv(envRole) != "server" {
		t.Skip("helper process of BenchmarkIdleConnections only")
	}
	hard := raiseFDLimit(t)
	n, _ := strconv.Atoi(os.Getenv(envConns))
	if n <= 0 || n > int(hard)-fdMargin {
		t.Fatalf("%d connections do not fit under RLIMIT_NOFILE %d", n, hard)
	}
	var h http.Handler
	var count func() int
	auth := "0"
	switch kind := os.Getenv(envServer); kind {
	case "bare":
		s := &bareServer{}
		h, count = s, s.Count
	case "gateway":
		key := domain.APIKey{ID: "key_1", AccountID: "acct_1", Permissions: []string{"*"}}
		hub := New(Options{
			Authenticate: func(_ context.Context, secret, _ string) (domain.APIKey, error) {
				if secret != "k" {
					return domain.APIKey{}, domain.ErrUnauthorized
				}
				return key, nil
			},
			Owns: func(context.Context, string, string) bool { return true },
			// Every connection comes from one address with one key: the
			// default caps (100 each) would refuse all but the first ones.
			MaxPerIP:  n,
			MaxPerKey: n,
		})
		defer hub.Close()
		h, count, auth = hub, hub.Count, "1"
	default:
		t.Fatalf("unknown server %q", kind)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	before := inUse()
	stop := startClients(t, "ws"+strings.TrimPrefix(srv.URL, "http")+"/v1?token=k", n, auth)
	defer stop()
	poll.Until(t, 5*time.Minute, "the server to hold every connection", func() bool { return count() == n })
	after := inUse()
	held := count()
	if p := os.Getenv(envProfile); p != "" {
		writeHeapProfile(t, p+"."+os.Getenv(envServer))
	}
	fmt.Printf("RESULT %d %d %d %d\n", held, after.heap-before.heap, after.stack-before.stack, after.goroutines-before.goroutines)
}

// usage is the memory the measurement counts.
type usage struct {
	heap, stack int64
	goroutines  int
}

// inUse measures after two GCs: the second frees what the first one's
// finalizers released (coder/websocket sets one on every connection).
func inUse() usage {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return usage{heap: int64(m.HeapInuse), stack: int64(m.StackInuse), goroutines: runtime.NumGoroutine()}
}

func writeHeapProfile(t *testing.T, path string) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		t.Fatal(err)
	}
}

// startClients starts the client processes, each with its share of the n
// connections, and waits until all of them are open. stop ends them.
func startClients(t *testing.T, url string, n int, auth string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	type client struct {
		share  int
		stdin  io.Closer
		out    *readyWriter
		exited chan struct{}
	}
	var clients []client
	stop = func() {
		for _, c := range clients {
			c.stdin.Close() // the client closes its connections and exits
		}
		for _, c := range clients {
			<-c.exited
		}
		cancel()
	}
	for i := range clientProcs {
		c := client{share: n/clientProcs + btoi(i < n%clientProcs), out: &readyWriter{ready: make(chan struct{})}, exited: make(chan struct{})}
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperClients$", "-test.timeout=0")
		cmd.Env = append(os.Environ(), envRole+"=clients", envURL+"="+url, envConns+"="+strconv.Itoa(c.share), envAuth+"="+auth)
		cmd.Stdout, cmd.Stderr = c.out, os.Stderr
		var err error
		if c.stdin, err = cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			stop()
			t.Fatal(err)
		}
		go func() { cmd.Wait(); close(c.exited) }()
		clients = append(clients, c)
	}
	// Generous: 20,000 handshakes on two busy cores.
	wait, done := context.WithTimeout(ctx, 10*time.Minute)
	defer done()
	for i, c := range clients {
		select {
		case <-c.out.ready:
		case <-c.exited:
			cancel() // kill the other one rather than wait for it
			stop()
			t.Fatalf("client process %d exited before its %d connections were open:\n%s", i, c.share, c.out.text())
		case <-wait.Done():
			cancel()
			stop()
			t.Fatalf("client process %d: %d connections not open within 10 minutes", i, c.share)
		}
	}
	return stop
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// readyWriter is a client process's stdout; ready closes once it printed
// READY.
type readyWriter struct {
	mu    sync.Mutex
	buf   []byte
	once  sync.Once
	ready chan struct{}
}

func (w *readyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if bytes.Contains(w.buf, []byte("READY\n")) {
		w.once.Do(func() { close(w.ready) })
	}
	return len(p), nil
}

func (w *readyWriter) text() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}

// raiseFDLimit raises the soft RLIMIT_NOFILE to the hard one and returns
// it; it cannot go higher without CAP_SYS_RESOURCE.
func raiseFDLimit(tb testing.TB) uint64 {
	tb.Helper()
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		tb.Fatal(err)
	}
	if l.Cur < l.Max {
		l.Cur = l.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			tb.Fatal(err)
		}
	}
	return uint64(l.Max)
}

// TestHelperClients is a client process of BenchmarkIdleConnections: it
// opens JANGADA_WS_CONNS connections to JANGADA_WS_URL, prints READY, and
// holds them until its stdin closes.
func TestHelperClients(t *testing.T) {
	if os.Getenv(envRole) != "clients" {
		t.Skip("helper process of BenchmarkIdleConnections only")
	}
	raiseFDLimit(t)
	n, _ := strconv.Atoi(os.Getenv(envConns))
	url, auth := os.Getenv(envURL), os.Getenv(envAuth) == "1"
	// Small client buffers: this process holds thousands of connections.
	d := websocket.Dialer{HandshakeTimeout: time.Minute, ReadBufferSize: 256, WriteBufferSize: 256}
	conns := make([]*websocket.Conn, n)
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	for range dialers {
		wg.Go(func() {
			for failed.Load() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				c, err := open(d, url, auth)
				if err != nil {
					err = fmt.Errorf("connection %d: %w", i, err)
					failed.CompareAndSwap(nil, &err)
					return
				}
				conns[i] = c
				go idle(c)
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		t.Fatal(*err)
	}
	fmt.Println("READY")
	os.Stdin.Read(make([]byte, 1)) // until the server process is done
	for _, c := range conns {
		c.Close()
	}
}

// open dials one connection; with auth, it waits for the gateway to say
// the token authenticated it.
func open(d websocket.Dialer, url string, auth bool) (*websocket.Conn, error) {
	c, _, err := d.Dial(url, nil)
	if err != nil {
		return nil, err
	}
	if auth {
		c.SetReadDeadline(time.Now().Add(time.Minute))
		_, msg, err := c.ReadMessage()
		if err != nil || !bytes.Contains(msg, []byte(`"authenticated"`)) {
			c.Close()
			return nil, fmt.Errorf("authentication: %s %v", msg, err)
		}
		c.SetReadDeadline(time.Time{})
	}
	return c, nil
}

// idle keeps a connection open as an idle client does: it reads, which
// answers protocol pings, and answers the gateway's JSON heartbeat. A
// silent client would be closed 45 s after it connected, and opening
// 20,000 connections on a loaded machine can take that long.
func idle(c *websocket.Conn) {
	for {
		_, msg, err := c.ReadMessage()
		if err != nil {
			return
		}
		if bytes.Contains(msg, []byte(`"event":"ping"`)) {
			c.WriteMessage(websocket.TextMessage, []byte(`{"action":"ping"}`))
		}
	}
}
