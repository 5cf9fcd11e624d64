//go:build devserver

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"

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
	key, err := db.KeyByHash(ctx, r.db, service.KeyHash(r.key))
	if err != nil {
		return out, err
	}
	tag := fmt.Sprintf("bench_%d", time.Now().UnixNano())
	want = want[:0]
	insStart := time.Now()
	var commit time.Time
	err = db.InTx(ctx, r.db, func(tx *sqlx.Tx) error {
		for i := range nHooks {
			id := fmt.Sprintf("%s_%d", tag, i)
			if _, err := db.InsertEvent(ctx, tx, r.accountID, &key.ID, "payment.created", id, map[string]any{"id": id, "status": "PENDING"}); err != nil {
				return err
			}
			want = append(want, id)
		}
		commit = time.Now()
		return nil
	})
	if err != nil {
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
