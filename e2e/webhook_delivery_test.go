package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/dispatch"
	"github.com/jangada/jangada/workflows"
)

// TestWebhookRetrySameDeliveryID: a receiver that fails once gets the same
// delivery (id and bytes) again; the history shows both attempts; a manual
// redelivery sends it once more under the same id.
func TestWebhookRetrySameDeliveryID(t *testing.T) {
	t.Parallel()
	e := hookEnv(t)
	m := e.merchant()
	r := newReceiver(t)
	r.failFirst = true
	ep := e.endpoint(r, m.ID, m.Key, "payment.created")
	e.createCharge(m, map[string]any{"amount": 3, "description": "Retry"})
	got := r.waitFor(1)
	if r.tries[got[0].ID] != 2 {
		t.Fatalf("tries %v", r.tries)
	}
	// The attempt is recorded just after the receiver answers: wait for it.
	var d map[string]any
	var at []any
	eventually(t, "both attempts in the history", func() bool {
		h := e.admin("GET", "/webhooks/"+ep+"/deliveries", nil).m(t)
		d = h["items"].([]any)[0].(map[string]any)
		at = d["history"].([]any)
		return d["status"] == "DELIVERED" && len(at) == 2
	})
	if d["id"] != got[0].ID || d["status"] != "DELIVERED" || len(at) != 2 ||
		at[0].(map[string]any)["statusCode"] != 500.0 || at[1].(map[string]any)["statusCode"] != 200.0 {
		t.Fatalf("delivery %v", d)
	}
	if at[0].(map[string]any)["error"] == nil || at[0].(map[string]any)["latencyMs"] == nil {
		t.Fatalf("attempt record %v", at[0])
	}
	red := e.admin("POST", "/deliveries/"+got[0].ID+"/redeliver", nil)
	if red.Status != 200 {
		t.Fatalf("redeliver: %d %s", red.Status, red.Message)
	}
	again := r.waitFor(2)
	if again[1].ID != got[0].ID || string(again[1].Body) != string(got[0].Body) || again[1].SigHeader != got[0].SigHeader {
		t.Fatalf("redelivery %s vs %s", again[1].Body, got[0].Body)
	}
	eventually(t, "the manual attempt in the history", func() bool {
		d := e.admin("GET", "/deliveries/"+got[0].ID, nil).m(t)
		return len(d["history"].([]any)) == 3
	})
	if r := e.admin("POST", "/deliveries/dlv_nope/redeliver", nil); r.Status != 404 {
		t.Fatalf("redeliver unknown: %d", r.Status)
	}
}

// TestWebhookExhaustedThenFailed: a receiver that always fails gets 1 + 2
// attempts (the configured schedule) and the delivery ends FAILED.
func TestWebhookExhaustedThenFailed(t *testing.T) {
	t.Parallel()
	e := hookEnv(t, 200*time.Millisecond, 200*time.Millisecond)
	m := e.merchant()
	dead := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "down", 503) }))
	t.Cleanup(dead.Close)
	r := e.call(m.Key, "POST", "/v1/webhooks/create", map[string]any{"url": dead.URL, "events": []string{"*"}})
	ep := r.m(t)["id"].(string)
	e.createCharge(m, map[string]any{"amount": 3, "description": "Exhaust"})
	var d map[string]any
	eventually(t, "the delivery to fail", func() bool {
		items := e.admin("GET", "/webhooks/"+ep+"/deliveries", nil).m(t)["items"].([]any)
		if len(items) == 0 {
			return false
		}
		d = items[0].(map[string]any)
		return d["status"] == "FAILED"
	})
	if len(d["history"].([]any)) != 3 || d["attempts"] != 3.0 {
		t.Fatalf("delivery %v", d)
	}
}

// TestWebhookDuplicateDispatchStartsNothing re-dispatches delivered events
// and starts a delivery's workflow twice: nothing is sent again.
func TestWebhookDuplicateDispatchStartsNothing(t *testing.T) {
	t.Parallel()
	e := hookEnv(t) // its own app also because it counts every delivery of the database
	m := e.merchant()
	r := newReceiver(t)
	e.endpoint(r, m.ID, m.Key, "*")
	id := e.createCharge(m, map[string]any{"amount": 3, "description": "Dup"})["id"].(string)
	got := r.waitFor(1)
	ctx := context.Background()
	if _, err := e.app.DB.Exec(`INSERT INTO events_undispatched (seq) SELECT seq FROM events WHERE resource_id = $1`, id); err != nil {
		t.Fatal(err)
	}
	e.app.Dispatcher.Wake()
	eventually(t, "the event to be dispatched again", func() bool {
		var n int
		e.app.DB.Get(&n, `SELECT count(*) FROM events_undispatched q JOIN events ev ON ev.seq = q.seq WHERE ev.resource_id = $1`, id)
		return n == 0
	})
	d, err := db.GetDelivery(ctx, e.app.DB, got[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := dispatch.StartDelivery(ctx, e.app.Temporal, e.app.Cfg.WebhookQueue(), d, workflows.WebhookInput{DeliveryID: d.ID, FirstAttempt: 1}, false); err != nil {
			t.Fatalf("duplicate start: %v", err)
		}
	}
	// Positive signal that nothing was started: every delivery has ended and
	// the delivery's workflow id still names a finished run (a duplicate
	// start would be running, or would have delivered before finishing).
	eventually(t, "every delivery workflow to end", func() bool {
		var open int
		if err := e.app.DB.Get(&open, `SELECT count(*) FROM webhook_deliveries WHERE status NOT IN ($1, $2)`, db.DeliveryDelivered, db.DeliveryFailed); err != nil || open != 0 {
			return false
		}
		desc, err := e.app.Temporal.DescribeWorkflowExecution(ctx, workflows.WebhookWorkflowID(d.ID, 0), "")
		return err == nil && desc.GetWorkflowExecutionInfo().GetStatus() != enums.WORKFLOW_EXECUTION_STATUS_RUNNING
	})
	var n int
	e.app.DB.Get(&n, `SELECT count(*) FROM webhook_deliveries`)
	if len(r.deliveries()) != 1 || n != 1 {
		t.Fatalf("%d deliveries received, %d stored", len(r.deliveries()), n)
	}
}

// TestWebhookFirstAttemptIsImmediate: with polling slowed to 10 s, the
// first attempt still leaves at once (NOTIFY and the in-process wake-up).
// Not parallel: it bounds a latency, which the other tests must not load.
func TestWebhookFirstAttemptIsImmediate(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.WebhookAllowPrivate = true
	cfg.EventPollInterval = 10 * time.Second
	e := startApp(t, cfg, app.Options{API: true, Worker: true})
	// Positive signal that the dispatcher listens and its start-up poll is
	// behind it (the next one is 10 s away): another account's event has
	// been delivered.
	warm, rWarm := e.merchant(), newReceiver(t)
	e.endpoint(rWarm, warm.ID, warm.Key, "*")
	e.createCharge(warm, map[string]any{"amount": 3, "description": "Warm-up"})
	rWarm.waitFor(1)
	m := e.merchant()
	r := newReceiver(t)
	e.endpoint(r, m.ID, m.Key, "*")
	began := time.Now()
	e.createCharge(m, map[string]any{"amount": 3, "description": "Fast"})
	committed := time.Now()
	got := r.waitFor(1)
	lat := got[0].At.Sub(committed)
	t.Logf("create took %v; webhook arrived %v after the create response", committed.Sub(began), lat)
	if lat > 2*time.Second {
		t.Fatalf("first attempt after %v: waited for a poll", lat)
	}
}
