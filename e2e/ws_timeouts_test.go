package e2e

import (
	"testing"
	"time"

	"github.com/jangada/jangada/app"
)

// A WebSocket outlives the HTTP server's read, write and idle timeouts:
// the upgrade clears them and the connection lives by its heartbeat. With
// timeouts of 300 ms, the client answers heartbeats for more than five
// times that (the positive signal: eight pongs), then still gets its
// account's events.
func TestWSOutlivesTheHTTPTimeouts(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	// The requests go to an API process with the usual timeouts (a create
	// on a loaded machine may take longer than 300 ms to answer); the
	// WebSocket lives on a second API process of the same database whose
	// listeners have the short ones.
	e := wsEnv(t, nil)
	cfg := e.app.Cfg
	cfg.HTTPAddr, cfg.WSAddr = "127.0.0.1:0", "127.0.0.1:0"
	cfg.HTTPReadTimeout, cfg.HTTPWriteTimeout, cfg.HTTPIdleTimeout = timeout, timeout, timeout
	cfg.WSPingPeriod, cfg.WSPongWait = 200*time.Millisecond, 150*time.Millisecond
	short := startApp(t, cfg, app.Options{API: true})
	m := e.merchant()
	c := short.connect(m.Key)
	opened := time.Now()
	for pongs := 0; pongs < 8; {
		f, err := c.next(10 * time.Second)
		if err != nil {
			t.Fatalf("connection lost after %v (%d pongs): %v", time.Since(opened), pongs, err)
		}
		switch f["event"] {
		case "ping":
			c.send(map[string]any{"action": "ping"})
		case "pong":
			pongs++
		}
	}
	if lived := time.Since(opened); lived < 5*timeout {
		t.Fatalf("eight heartbeats in %v: the test proves nothing about timeouts of %v", lived, timeout)
	}
	if f := c.subscribe("pattern", "payment.*"); f["event"] != "subscribed" {
		t.Fatalf("subscribe: %v", f)
	}
	id := e.createCharge(m, map[string]any{"amount": 10, "description": "Venda"})["id"].(string)
	// Heartbeats keep coming: the wait for the event has its own deadline.
	for deadline := time.Now().Add(30 * time.Second); ; {
		if time.Now().After(deadline) {
			t.Fatal("no payment.created within 30 s of the create")
		}
		f, err := c.next(10 * time.Second)
		if err != nil {
			t.Fatalf("no event after the timeouts: %v", err)
		}
		switch f["event"] {
		case "ping":
			c.send(map[string]any{"action": "ping"})
		case "pong":
		case "payment.created":
			envelopeOK(t, e, m.KeyID, f, "payment.created", id)
			return
		default:
			t.Fatalf("unexpected frame %v", f["_raw"])
		}
	}
}
