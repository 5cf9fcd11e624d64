//go:build devserver

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// wsWatcher is one authenticated WebSocket client subscribed to
// payment.*: it timestamps each payment.paid frame for whoever waits for
// that payment, and answers the server's heartbeat.
type wsWatcher struct {
	c       *websocket.Conn
	wmu     sync.Mutex // one writer at a time
	mu      sync.Mutex
	waiters map[string]chan time.Time
	// seen is when each payment.paid frame arrived, by charge id (the
	// mixed run counts lost frames from it).
	seen map[string]time.Time
	done chan struct{}
	err  error
}

// dialWatcher is the rig's merchant's watcher.
func dialWatcher(ctx context.Context, r *rig) (*wsWatcher, error) {
	return dialWatcherAs(ctx, r, r.key)
}

// dialWatcherAs is the watcher of the merchant whose API key is key.
func dialWatcherAs(ctx context.Context, r *rig, key string) (*wsWatcher, error) {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	c, res, err := d.DialContext(ctx, "ws://"+r.wsAddr+"/v1?token="+key, nil)
	if err != nil {
		if res != nil {
			err = fmt.Errorf("%w (HTTP %d)", err, res.StatusCode)
		}
		return nil, fmt.Errorf("websocket dial: %w", err)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	frame := func() (map[string]any, error) {
		for {
			var m map[string]any
			if err := c.ReadJSON(&m); err != nil {
				return nil, err
			}
			if m["event"] != "ping" {
				return m, nil
			}
		}
	}
	if m, err := frame(); err != nil || m["event"] != "authenticated" {
		c.Close()
		return nil, fmt.Errorf("websocket authentication: %v %v", m, err)
	}
	if err := c.WriteJSON(map[string]any{"action": "subscribe", "pattern": "payment.*"}); err != nil {
		c.Close()
		return nil, err
	}
	for {
		m, err := frame()
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("websocket subscribe: %w", err)
		}
		if m["event"] == "subscribed" {
			break
		}
		if m["event"] == "error" {
			c.Close()
			return nil, fmt.Errorf("websocket subscribe: %v", m)
		}
		// a payment.* frame of an earlier charge: not ours to time
	}
	c.SetReadDeadline(time.Time{})
	w := &wsWatcher{c: c, waiters: map[string]chan time.Time{}, seen: map[string]time.Time{}, done: make(chan struct{})}
	go w.read()
	return w, nil
}

func (w *wsWatcher) read() {
	defer close(w.done)
	var f struct {
		Event string `json:"event"`
		Data  struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	for {
		_, raw, err := w.c.ReadMessage()
		if err != nil {
			w.err = err
			return
		}
		at := time.Now()
		f.Event, f.Data.ID = "", ""
		if json.Unmarshal(raw, &f) != nil {
			continue
		}
		switch f.Event {
		case "ping":
			w.wmu.Lock()
			w.c.SetWriteDeadline(time.Now().Add(5 * time.Second))
			w.c.WriteJSON(map[string]any{"action": "ping"})
			w.wmu.Unlock()
		case "payment.paid":
			w.mu.Lock()
			ch := w.waiters[f.Data.ID]
			delete(w.waiters, f.Data.ID)
			if _, dup := w.seen[f.Data.ID]; !dup {
				w.seen[f.Data.ID] = at
			}
			w.mu.Unlock()
			if ch != nil {
				ch <- at
			}
		}
	}
}

// expect registers interest in id's payment.paid before the pay call.
func (w *wsWatcher) expect(id string) chan time.Time {
	ch := make(chan time.Time, 1)
	w.mu.Lock()
	w.waiters[id] = ch
	w.mu.Unlock()
	return ch
}

// seenAt is when id's payment.paid frame arrived (false: not yet).
func (w *wsWatcher) seenAt(id string) (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	at, ok := w.seen[id]
	return at, ok
}

// sawAll tells whether every id's payment.paid has arrived.
func (w *wsWatcher) sawAll(ids []string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, id := range ids {
		if _, ok := w.seen[id]; !ok {
			return false
		}
	}
	return true
}

func (w *wsWatcher) forget(id string) {
	w.mu.Lock()
	delete(w.waiters, id)
	w.mu.Unlock()
}

func (w *wsWatcher) wait(ctx context.Context, id string, ch chan time.Time, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return nil
	case <-w.done:
		return fmt.Errorf("websocket closed before payment.paid of %s: %v", id, w.err)
	case <-t.C:
		w.forget(id)
		return fmt.Errorf("no payment.paid frame for %s within %v", id, d)
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (w *wsWatcher) close() {
	w.wmu.Lock()
	w.c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	w.wmu.Unlock()
	w.c.Close()
	<-w.done
}
