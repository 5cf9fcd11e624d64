package ws

import (
	"context"
	"net/http"
	"sync/atomic"

	coder "github.com/coder/websocket"
)

// bareServer is the baseline of BenchmarkIdleConnections: a WebSocket
// server built on github.com/coder/websocket that does the least a server
// can do with a connection and still hold it open and notice its close —
// accept it, then block in a read loop until the read fails. No
// authentication, no heartbeat, no send queue, no bookkeeping beyond a
// counter the benchmark polls.
type bareServer struct{ open atomic.Int64 }

// ServeHTTP accepts the upgrade and reads until the connection ends, in
// the handler's goroutine: one goroutine per connection, the minimum.
func (s *bareServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Default options: no compression (the client asks for none anyway),
	// Origin checked against Host (the test client sends no Origin).
	c, err := coder.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	s.open.Add(1)
	defer s.open.Add(-1)
	// context.Background, not r.Context(): with a context that can be
	// cancelled, coder/websocket registers a context.AfterFunc on every
	// read, which a bare server need not pay for. The leanest baseline
	// makes the gateway's ratio the strictest.
	ctx := context.Background()
	for {
		if _, _, err := c.Read(ctx); err != nil {
			return
		}
	}
}

// Count is the number of accepted connections not yet ended.
func (s *bareServer) Count() int { return int(s.open.Load()) }
