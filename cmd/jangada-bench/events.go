//go:build devserver

package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/service"
)

// eventFigures are the event benchmarks of runEvents.
type eventFigures struct {
	// latency: sandbox pay call start → payment.paid frame on the
	// WebSocket client, at concurrency 1 and 16.
	latency []result
	// creates is the (timed) charge creation that produced hooks[0]'s events.
	creates result
	hooks   []hookRun
}

// hookRun is one webhook throughput measurement.
type hookRun struct {
	name string
	// expected events; received distinct delivery ids for them; duplicates
	// are repeated posts of an id already received; extra are distinct
	// delivery ids beyond one per expected event; badSig failed the
	// x-jangada-signature check (answered 400).
	expected, received, duplicates, extra, badSig int
	// produce is how long generating the events took; window runs from
	// the first event to the last delivery received.
	produce, window time.Duration
}

func (h hookRun) loss() int { return h.expected - h.received }

func (h hookRun) perSecond() float64 { return float64(h.received) / h.window.Seconds() }

func (h hookRun) String() string {
	return fmt.Sprintf("%-34s n=%-5d %8.1f/s  loss %d  dup %d  extra %d  bad sig %d  (events made in %.2f s, last delivery %.2f s after the first event)",
		h.name, h.expected, h.perSecond(), h.loss(), h.duplicates, h.extra, h.badSig, h.produce.Seconds(), h.window.Seconds())
}

// runEvents measures, on the rig: the latency from the sandbox pay call to
// the payment.paid frame on an authenticated WebSocket client (c=1, then
// c=16), and webhook deliveries per second to a local signature-checking
// receiver, with loss and duplicates counted.
func runEvents(ctx context.Context, r *rig, n1, n32 int) (eventFigures, error) {
	var out eventFigures
	nLat1, nLat16, nHooks := max(n1/2, 10), max(n32/6, 16), max(n32/3, 50)

	// 1. pay → WebSocket. The charges are made first, untimed.
	ids := make([]string, nLat1+nLat16)
	mk := run(ctx, "create charges (setup)", 8, len(ids), func(ctx context.Context, i int) error {
		id, err := r.createChargeID(ctx, i)
		ids[i] = id
		return err
	})
	if mk.errors > 0 {
		return out, fmt.Errorf("creating charges for the event bench: %d errors, first: %v", mk.errors, mk.firstErr)
	}
	time.Sleep(2 * time.Second) // let the creations' workflows and events settle
	w, err := dialWatcher(ctx, r)
	if err != nil {
		return out, err
	}
	pay := func(base int) func(ctx context.Context, i int) error {
		return func(ctx context.Context, i int) error {
			id := ids[base+i]
			ch := w.expect(id)
			if err := r.post(ctx, "/v1/sandbox/payment-pix/"+id+"/pay", map[string]any{}); err != nil {
				w.forget(id)
				return err
			}
			return w.wait(ctx, id, ch, 30*time.Second)
		}
	}
	out.latency = append(out.latency, run(ctx, "pay → WebSocket payment.paid", 1, nLat1, pay(0)))
	time.Sleep(2 * time.Second)
	out.latency = append(out.latency, run(ctx, "pay → WebSocket payment.paid", 16, nLat16, pay(nLat1)))
	w.close()

	// 2. Webhook deliveries to a local receiver.
	time.Sleep(2 * time.Second)
	rcv := newHookReceiver()
	defer rcv.srv.Close()
	raw, err := r.postData(ctx, "/v1/webhooks/create", map[string]any{
		"url": rcv.srv.URL + "/hooks", "events": []string{"payment.created"}, "description": "bench receiver",
	})
	if err != nil {
		return out, fmt.Errorf("create webhook endpoint: %w", err)
	}
	var ep struct{ ID, Secret string }
	if err := json.Unmarshal(raw, &ep); err != nil || ep.Secret == "" {
		return out, fmt.Errorf("create webhook endpoint: %s %v", raw, err)
	}
	defer r.postDelete(context.Background(), "/v1/webhooks/delete/"+ep.ID)
	rcv.setSecret(ep.Secret)

	// 2a. Real events: charges created through the API at c=32, each
	// committing one payment.created.
	hookIDs := make([]string, nHooks)
	start := time.Now()
	out.creates = run(ctx, "payment-pix/create, hook active", 32, nHooks, func(ctx context.Context, i int) error {
		id, err := r.createChargeID(ctx, i)
		hookIDs[i] = id
		return err
	})
	produced := time.Since(start)
	var want []string
	for _, id := range hookIDs {
		if id != "" {
			want = append(want, id)
		}
	}
	h := rcv.await(ctx, "webhooks, charges created at c=32", want, start)
	h.produce = produced
	out.hooks = append(out.hooks, h)

	// 2b. Delivery capacity alone: as many events committed in one
	// transaction (the outbox as a state change writes it), so that the
	// rate of creating charges does not bound the figure.
	time.Sleep(2 * time.Second)
	key, err := db.KeyByHash(ctx, r.app.DB, service.KeyHash(r.key))
	if err != nil {
		return out, err
	}
	tag := fmt.Sprintf("bench_%d", time.Now().UnixNano())
	tx, err := r.app.DB.BeginTxx(ctx, nil)
	if err != nil {
		return out, err
	}
	want = want[:0]
	insStart := time.Now()
	for i := range nHooks {
		id := fmt.Sprintf("%s_%d", tag, i)
		if _, err := db.InsertEvent(ctx, tx, r.accountID, &key.ID, "payment.created", id, map[string]any{"id": id, "status": "PENDING"}); err != nil {
			tx.Rollback()
			return out, err
		}
		want = append(want, id)
	}
	commit := time.Now()
	if err := tx.Commit(); err != nil {
		return out, err
	}
	h = rcv.await(ctx, "webhooks, outbox burst (1 commit)", want, commit)
	h.produce = commit.Sub(insStart)
	out.hooks = append(out.hooks, h)
	return out, nil
}

// postData sends one authenticated JSON POST, wants a 200 and returns the
// response envelope's data.
func (r *rig) postData(ctx context.Context, path string, body any) (json.RawMessage, error) {
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, "POST", r.base+path, bytes.NewReader(raw))
	req.Header.Set("X-API-Key", r.key)
	req.Header.Set("Content-Type", "application/json")
	res, err := r.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		return nil, fmt.Errorf("HTTP %d: %s", res.StatusCode, b)
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, fmt.Errorf("response %s: %w", b, err)
	}
	return env.Data, nil
}

func (r *rig) postDelete(ctx context.Context, path string) {
	req, _ := http.NewRequestWithContext(ctx, "DELETE", r.base+path, nil)
	req.Header.Set("X-API-Key", r.key)
	if res, err := r.http.Do(req); err == nil {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
}

// createChargeID is one POST /v1/payment-pix/create returning the charge id.
func (r *rig) createChargeID(ctx context.Context, i int) (string, error) {
	raw, err := r.postData(ctx, "/v1/payment-pix/create", map[string]any{"amount": 10 + i%100, "description": fmt.Sprintf("Bench evento %d", i)})
	if err != nil {
		return "", err
	}
	var c struct{ ID string }
	if err := json.Unmarshal(raw, &c); err != nil || c.ID == "" {
		return "", fmt.Errorf("charge %s: %v", raw, err)
	}
	return c.ID, nil
}

// wsWatcher is one authenticated WebSocket client subscribed to
// payment.*: it timestamps each payment.paid frame for whoever waits for
// that payment, and answers the server's heartbeat.
type wsWatcher struct {
	c       *websocket.Conn
	wmu     sync.Mutex // one writer at a time
	mu      sync.Mutex
	waiters map[string]chan time.Time
	done    chan struct{}
	err     error
}

func dialWatcher(ctx context.Context, r *rig) (*wsWatcher, error) {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	c, res, err := d.DialContext(ctx, "ws://"+r.app.WSAddr+"/v1?token="+r.key, nil)
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
	w := &wsWatcher{c: c, waiters: map[string]chan time.Time{}, done: make(chan struct{})}
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

// hookReceiver is a merchant's endpoint on 127.0.0.1: it checks
// x-jangada-signature (lower-case hex HMAC-SHA256 of the raw body, keyed
// with the whole secret) with its own code and counts delivery ids.
type hookReceiver struct {
	srv *httptest.Server

	mu         sync.Mutex
	secret     []byte
	byID       map[string]string          // delivery id → data.id
	byResource map[string]map[string]bool // data.id → delivery ids
	posts      map[string]int             // delivery id → posts received
	badSig     int
	last       time.Time
}

func newHookReceiver() *hookReceiver {
	h := &hookReceiver{byID: map[string]string{}, byResource: map[string]map[string]bool{}, posts: map[string]int{}}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve)) // listens on 127.0.0.1
	return h
}

func (h *hookReceiver) setSecret(s string) {
	h.mu.Lock()
	h.secret = []byte(s)
	h.mu.Unlock()
}

func (h *hookReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	at := time.Now()
	if err != nil {
		http.Error(w, "read", 400)
		return
	}
	h.mu.Lock()
	secret := h.secret
	h.mu.Unlock()
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	want := "sha256=" + hex.EncodeToString(mac.Sum(nil))
	var env struct {
		ID   string `json:"id"`
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	id := req.Header.Get("x-jangada-delivery")
	if len(secret) == 0 || !hmac.Equal([]byte(req.Header.Get("x-jangada-signature")), []byte(want)) ||
		json.Unmarshal(body, &env) != nil || id == "" || env.ID != id {
		h.mu.Lock()
		h.badSig++
		h.mu.Unlock()
		http.Error(w, "bad signature or envelope", 400)
		return
	}
	h.mu.Lock()
	h.posts[id]++
	if _, ok := h.byID[id]; !ok {
		h.byID[id] = env.Data.ID
		set := h.byResource[env.Data.ID]
		if set == nil {
			set = map[string]bool{}
			h.byResource[env.Data.ID] = set
		}
		set[id] = true
		h.last = at
	}
	h.mu.Unlock()
	w.WriteHeader(200)
}

// count reports, for the expected resources: how many have at least one
// delivery, the posts that repeated an id, the extra distinct ids, and the
// time of the last new delivery.
func (h *hookReceiver) count(want []string) (received, dups, extra, bad int, last time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, res := range want {
		set := h.byResource[res]
		if len(set) > 0 {
			received++
			extra += len(set) - 1
		}
		for id := range set {
			dups += h.posts[id] - 1
		}
	}
	return received, dups, extra, h.badSig, h.last
}

// await waits (bounded) until every expected resource has a delivery, then
// a little longer for duplicates to show, and summarises.
func (h *hookReceiver) await(ctx context.Context, name string, want []string, first time.Time) hookRun {
	_, _, _, badBefore, _ := h.count(nil)
	deadline := time.Now().Add(min(60*time.Second+time.Duration(len(want))*50*time.Millisecond, 5*time.Minute))
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if got, _, _, _, _ := h.count(want); got >= len(want) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	got, _, _, _, last := h.count(want)
	time.Sleep(time.Second) // room for a duplicate to arrive
	_, dups, extra, bad, _ := h.count(want)
	window := last.Sub(first)
	if got == 0 || window <= 0 {
		window = time.Since(first)
	}
	return hookRun{name: name, expected: len(want), received: got, duplicates: dups, extra: extra, badSig: bad - badBefore, window: window}
}

// hooksOK fails the bench on any loss or bad signature (duplicates and
// extra ids are reported, not failed on: delivery is at least once).
func hooksOK(hs []hookRun) error {
	var errs []error
	for _, h := range hs {
		if h.loss() != 0 || h.badSig != 0 {
			errs = append(errs, fmt.Errorf("%s: %d expected, %d received, %d duplicates, %d extra, %d bad signatures",
				h.name, h.expected, h.received, h.duplicates, h.extra, h.badSig))
		}
	}
	return errors.Join(errs...)
}
