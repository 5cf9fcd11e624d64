package ws

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/poll"
)

// sessionHub serves a hub that authenticates any token, with o's timings.
func sessionHub(t *testing.T, o Options) (*Hub, string) {
	t.Helper()
	key := domain.APIKey{ID: "key_1", AccountID: "acct_1", Permissions: []string{"*"}}
	o.Authenticate = func(context.Context, string, string) (domain.APIKey, error) { return key, nil }
	o.Owns = func(context.Context, string, string) bool { return true }
	h := New(o)
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return h, "ws" + strings.TrimPrefix(srv.URL, "http") + "/v1?token=k"
}

// authenticatedConn dials url and reads the authenticated frame.
func authenticatedConn(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	c, _ := dial(t, url)
	if c == nil {
		t.Fatal("upgrade refused")
	}
	if m := next(t, c); m["event"] != "authenticated" {
		t.Fatalf("first frame: %v", m)
	}
	return c
}

// The server sends protocol pings every PingPeriod, and drops a client
// that never answers them PingPeriod+PongWait after it connected, even
// though it answers the JSON heartbeat.
func TestWSProtocolPings(t *testing.T) {
	t.Parallel()
	_, url := sessionHub(t, Options{PingPeriod: 100 * time.Millisecond, PongWait: 400 * time.Millisecond})
	c := authenticatedConn(t, url)
	var pings atomic.Int32
	c.SetPingHandler(func(string) error { pings.Add(1); return nil }) // no pong
	began := time.Now()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		_, msg, err := c.ReadMessage()
		if err != nil {
			if websocket.IsCloseError(err, websocket.ClosePolicyViolation) {
				t.Fatalf("closed by the JSON heartbeat, not for the missing pongs: %v", err)
			}
			break
		}
		if bytes.Contains(msg, []byte(`"event":"ping"`)) {
			c.WriteMessage(websocket.TextMessage, []byte(`{"action":"ping"}`))
		}
	}
	// The read deadline is PingPeriod+PongWait (500 ms) from the start.
	if lived := time.Since(began); lived > 3*time.Second {
		t.Fatalf("unanswered protocol pings: connection lived %v", lived)
	}
	if n := pings.Load(); n < 2 {
		t.Fatalf("%d protocol pings before the drop, want at least 2", n)
	}
}

// A client that does not read while frames pile up past SendBuffer is
// cut off, and the hub forgets it.
func TestWSSlowClientIsDropped(t *testing.T) {
	t.Parallel()
	h, url := sessionHub(t, Options{SendBuffer: 4})
	authenticatedConn(t, url) // and never read again
	h.mu.RLock()
	var c *conn
	for _, v := range h.conns {
		c = v
	}
	h.mu.RUnlock()
	// 1 MiB frames fill the socket buffers within a few frames; the
	// writer then blocks and the queue fills.
	frame := bytes.Repeat([]byte("x"), 1<<20)
	for range 64 {
		c.s.Write(frame)
	}
	poll.Until(t, 5*time.Second, "the slow client to be dropped", func() bool { return h.Count() == 0 && h.open() == 0 })
}

// Close sends every client 1001 after the frames queued before it, and
// the hub refuses new connections.
func TestWSShutdownClosesWith1001(t *testing.T) {
	t.Parallel()
	h, url := sessionHub(t, Options{})
	c := authenticatedConn(t, url)
	h.mu.RLock()
	for _, v := range h.conns {
		v.send(map[string]any{"event": "last"})
	}
	h.mu.RUnlock()
	h.Close()
	if m := next(t, c); m["event"] != "last" {
		t.Fatalf("frame queued before shutdown: %v", m)
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := c.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseGoingAway) {
		t.Fatalf("shutdown: %v, want close 1001", err)
	}
	if n := h.Count(); n != 0 {
		t.Fatalf("Count after Close: %d", n)
	}
	if c, _, err := websocket.DefaultDialer.Dial(url, nil); err == nil {
		c.Close()
		t.Fatal("a closed hub upgraded a new connection")
	}
}
