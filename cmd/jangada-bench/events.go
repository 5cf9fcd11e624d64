//go:build devserver

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/client"

	jclient "github.com/jangada/jangada/client"
	"github.com/jangada/jangada/client/oapi"
)

// payToWS measures the latency from the sandbox pay call to the
// payment.paid frame on an authenticated WebSocket client, at concurrency
// 1, beside the bare path of a processor notice: SignalWorkflow to the
// start of the activity the signal releases, the two in alternating
// rounds. The charges and the bare workflows are made first, untimed.
func payToWS(ctx context.Context, r *rig, n int) (ours, bare result, err error) {
	ids, err := r.makeCharges(ctx, n)
	if err != nil {
		return ours, bare, err
	}
	bareIDs := make([]string, n)
	mk := run(ctx, "bare workflows (setup)", 8, n, func(ctx context.Context, i int) error {
		bareIDs[i] = fmt.Sprintf("bench-await-%d", r.seq.Add(1))
		_, err := r.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: bareIDs[i], TaskQueue: bareQueue}, "BenchAwaitSignal", bareIDs[i])
		return err
	})
	if mk.errors > 0 {
		return ours, bare, fmt.Errorf("bare workflows: %v", mk.firstErr)
	}
	pause() // the bare workflows reach their wait
	w, err := dialWatcher(ctx, r)
	if err != nil {
		return ours, bare, err
	}
	defer w.close()
	// Both paths in alternating rounds (paired): a machine whose speed
	// drifts over the seconds of the row moves both sides alike.
	bareBegan, bareStarted, began := make([]time.Time, n), make([]time.Time, n), make([]time.Time, n)
	var nextBare, nextOurs atomic.Int64
	bare, ours = r.paired(ctx, 1, n, "bare SignalWorkflow → activity start", func(ctx context.Context, _ int) error {
		i := int(nextBare.Add(1) - 1)
		ch := r.marks.expect(bareIDs[i])
		bareBegan[i] = time.Now()
		if err := r.client.SignalWorkflow(ctx, bareIDs[i], "", "go", nil); err != nil {
			return err
		}
		select {
		case bareStarted[i] = <-ch: // run times the call up to here: signal to activity start
			return nil
		case <-time.After(30 * time.Second):
			return fmt.Errorf("activity of %s did not start", bareIDs[i])
		}
	}, "pay → WebSocket payment.paid", func(ctx context.Context, _ int) error {
		i := int(nextOurs.Add(1) - 1)
		id := ids[i]
		ch := w.expect(id)
		began[i] = time.Now()
		if err := r.post(ctx, "/v1/sandbox/payment-pix/"+id+"/pay", map[string]any{}); err != nil {
			w.forget(id)
			return err
		}
		return w.wait(ctx, id, ch, 30*time.Second)
	}, nil)
	n = int(min(nextBare.Load(), nextOurs.Load()))
	ids, bareIDs, bareBegan, bareStarted, began = ids[:n], bareIDs[:n], bareBegan[:n], bareStarted[:n], began[:n]
	paySteps(r.paidSteps(ctx, ids, began, w), r.bareSteps(ctx, bareIDs, bareBegan, bareStarted))
	return ours, bare, nil
}

// makeCharges creates n charges through the API at concurrency 8 (set-up).
func (r *rig) makeCharges(ctx context.Context, n int) ([]string, error) {
	ids := make([]string, n)
	mk := run(ctx, "create charges (setup)", 8, n, func(ctx context.Context, i int) error {
		id, err := r.createChargeID(ctx, i)
		ids[i] = id
		return err
	})
	if mk.errors > 0 {
		return nil, fmt.Errorf("creating charges: %d errors, first: %v", mk.errors, mk.firstErr)
	}
	return ids, nil
}

// deliveries measures webhook deliveries per second end to end: n charges
// created and paid through the API at concurrency 32, each giving two
// events (payment.created, payment.paid) delivered signed to a local
// receiver, from the first create to the last delivery; beside 2n bare
// workflows, started at concurrency 32, whose one activity POSTs.
func deliveries(ctx context.Context, r *rig, n int) (ours, bare hookRun, err error) {
	brcv := newBareReceiver()
	defer brcv.srv.Close()
	ids := make([]string, 2*n)
	start := time.Now()
	mk := run(ctx, "bare post workflows", 32, 2*n, func(ctx context.Context, i int) error {
		ids[i] = fmt.Sprintf("bare-%d", r.seq.Add(1))
		_, err := r.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "bench-post-" + ids[i], TaskQueue: bareQueue},
			"BenchPost", brcv.srv.URL, ids[i])
		return err
	})
	bare = brcv.await(ctx, "bare workflows, one activity POSTs", ids, start)
	bare.produce = mk.elapsed
	pause()

	rcv := newHookReceiver()
	defer rcv.srv.Close()
	raw, err := r.postData(ctx, "/v1/webhooks/create", map[string]any{
		"url": rcv.srv.URL + "/hooks", "events": []string{"payment.created", "payment.paid"}, "description": "bench receiver",
	})
	if err != nil {
		return ours, bare, fmt.Errorf("create webhook endpoint: %w", err)
	}
	var ep struct{ ID, Secret string }
	if err := json.Unmarshal(raw, &ep); err != nil || ep.Secret == "" {
		return ours, bare, fmt.Errorf("create webhook endpoint: %s %v", raw, err)
	}
	defer r.postDelete(context.Background(), "/v1/webhooks/delete/"+ep.ID)
	rcv.setSecret(ep.Secret)
	charges := make([]string, n)
	start = time.Now()
	mk = run(ctx, "charges created and paid", 32, n, func(ctx context.Context, i int) error {
		id, err := r.createChargeID(ctx, i)
		if err != nil {
			return err
		}
		charges[i] = id
		return r.postRetrying503(ctx, "/v1/sandbox/payment-pix/"+id+"/pay", map[string]any{})
	})
	if n := retried503.Swap(0); n > 0 {
		fmt.Printf("  (%d pay calls answered 503 and were sent again, as a client does)\n", n)
	}
	if mk.errors > 0 {
		return ours, bare, fmt.Errorf("charges created and paid: %d errors, first: %v", mk.errors, mk.firstErr)
	}
	ours = rcv.await(ctx, "webhooks, charges created and paid", charges, 2, start)
	ours.produce = mk.elapsed
	printAttempts(ctx, r, ep.ID)
	return ours, bare, nil
}

// printAttempts prints the delivery log of the bench's endpoint: how many
// attempts each delivery took and why the failed ones failed, which is what
// explains a tail in the deliveries' window (a failed attempt waits for
// the retry schedule).
func printAttempts(ctx context.Context, r *rig, endpointID string) {
	var rows []struct {
		Outcome string `db:"outcome"`
		N       int    `db:"n"`
		P50     int    `db:"p50"`
		Max     int    `db:"max"`
	}
	err := r.db.SelectContext(ctx, &rows, `
		SELECT coalesce(a.error, 'HTTP ' || a.status_code::text) AS outcome, count(*) AS n,
		       percentile_disc(0.5) WITHIN GROUP (ORDER BY a.latency_ms) AS p50, max(a.latency_ms) AS max
		FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
		WHERE d.endpoint_id = $1 GROUP BY 1 ORDER BY 2 DESC`, endpointID)
	if err != nil {
		fmt.Println("  delivery log:", err)
		return
	}
	for _, x := range rows {
		fmt.Printf("  delivery log: %-40.40s %5d attempts, latency p50 %d ms, max %d ms\n", x.Outcome, x.N, x.P50, x.Max)
	}
	// Where the last deliveries lost their time: before their event
	// existed, in the dispatcher (event → delivery row), before the first
	// attempt's workflow task, or in the attempt (queued for a slot, sent).
	var last []struct {
		Type     string  `db:"event_type"`
		Event    float64 `db:"event"`
		Row      float64 `db:"row"`
		Task     float64 `db:"task"`
		Attempts int     `db:"attempts"`
		Done     float64 `db:"done"`
	}
	err = r.db.SelectContext(ctx, &last, `
		WITH t AS (
			SELECT d.event_type, e.created_at AS ev, d.created_at AS dc, min(a.started_at) AS fa, count(a.*) AS attempts,
			       d.delivered_at AS da, min(e.created_at) OVER () AS t0
			FROM webhook_deliveries d JOIN events e ON e.id = d.event_id JOIN webhook_attempts a ON a.delivery_id = d.id
			WHERE d.endpoint_id = $1 GROUP BY d.id, e.id)
		SELECT event_type, extract(epoch FROM ev - t0) AS event, extract(epoch FROM dc - ev) AS row,
		       extract(epoch FROM fa - dc) AS task, attempts, extract(epoch FROM da - fa) AS done
		FROM t WHERE da IS NOT NULL ORDER BY da DESC LIMIT 3`, endpointID)
	if err != nil {
		fmt.Println("  last deliveries:", err)
	}
	for _, x := range last {
		fmt.Printf("  last deliveries: %-16s event at +%.2f s, row +%.2f s, first attempt's task +%.2f s, delivered +%.2f s later (%d attempts)\n",
			x.Type, x.Event, x.Row, x.Task, x.Done, x.Attempts)
	}
}

// retried503 counts the calls postRetrying503 sent again.
var retried503 atomic.Int64

// postRetrying503 is post sent again after a 503 (Temporal slower than the
// API's deadline: the answer says "try again", and a client does, after a
// pause), at most 20 times.
func (r *rig) postRetrying503(ctx context.Context, path string, body any) error {
	return r.postRetrying503As(ctx, r.key, path, body)
}

// postRetrying503As is postRetrying503 with another account's key.
func (r *rig) postRetrying503As(ctx context.Context, key, path string, body any) error {
	for try := 0; ; try++ {
		err := r.postAs(ctx, key, path, body)
		if err == nil || try == 20 || !strings.HasPrefix(err.Error(), "HTTP 503") {
			return err
		}
		retried503.Add(1)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// postData sends one authenticated JSON POST, wants a 200 and returns the
// response envelope's data.
func (r *rig) postData(ctx context.Context, path string, body any) (json.RawMessage, error) {
	return r.postDataAs(ctx, r.key, path, body)
}

// postAs is post with another account's key.
func (r *rig) postAs(ctx context.Context, key, path string, body any) error {
	_, err := r.postDataAs(ctx, key, path, body)
	return err
}

func (r *rig) postDataAs(ctx context.Context, key, path string, body any) (json.RawMessage, error) {
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, "POST", r.base+path, bytes.NewReader(raw))
	req.Header.Set("X-API-Key", key)
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

// createChargeID is one POST /v1/payment-pix/create returning the charge
// id, made with the generated Go client (dogfooding it): this is set-up,
// untimed, so the client's transport stays off the measured paths.
func (r *rig) createChargeID(ctx context.Context, i int) (string, error) {
	c, err := r.api()
	if err != nil {
		return "", err
	}
	res, err := c.PaymentPixCreateWithResponse(ctx, nil, oapi.PaymentPixCreateJSONRequestBody{
		Amount: float64(10 + i%100), Description: fmt.Sprintf("Bench evento %d", i),
	})
	if err != nil {
		return "", err
	}
	if res.JSON200 == nil || res.JSON200.Id == "" {
		return "", fmt.Errorf("charge: %s", res.Body)
	}
	return res.JSON200.Id, nil
}

// api is the rig's Go client (made once its key exists), sharing the
// rig's HTTP client and its connections.
func (r *rig) api() (*jclient.Client, error) {
	r.apiOnce.Do(func() { r.apiClient, r.apiErr = jclient.New(r.base+"/v1", r.key, jclient.WithHTTPClient(r.http)) })
	return r.apiClient, r.apiErr
}
