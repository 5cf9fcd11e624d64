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
// account's events. While it creates the charge it reads no frame, so it
// pings on its own, as a client may.
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
	// The create may take longer than the 150 ms heartbeat window on a
	// loaded machine, and this goroutine reads no frame meanwhile: the
	// client pings on its own, twice a ping period, until it answers.
	stop, stopped := make(chan struct{}), make(chan error, 1)
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				stopped <- nil
				return
			case <-tick.C:
				if err := c.c.WriteJSON(map[string]any{"action": "ping"}); err != nil {
					stopped <- err
					return
				}
			}
		}
	}()
	id := e.createCharge(m, map[string]any{"amount": 10, "description": "Venda"})["id"].(string)
	close(stop)
	if err := <-stopped; err != nil {
		t.Fatalf("the connection was lost while the charge was created: %v", err)
	}
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
