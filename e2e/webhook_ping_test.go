package e2e

import (
	"context"
	"encoding/json"
	"testing"
)

// TestWebhookTestEvent: the admin's webhook.test reaches exactly the one
// endpoint it names, signed like every delivery (the receiver checks both
// signatures with its own code), with the trigger's metadata, and is
// recorded in that endpoint's delivery history; the account's other
// endpoints, even one subscribed to "*", get nothing. A disabled endpoint
// is refused (400), an unknown one is 404, and no admin token is 401.
func TestWebhookTestEvent(t *testing.T) {
	t.Parallel()
	e := hookEnv(t)
	m := e.merchant()
	target, other := newReceiver(t), newReceiver(t)
	id := e.endpoint(target, m.ID, m.Key, "payment.paid")
	dash := e.endpoint(other, m.ID, "", "*")

	r := e.admin("POST", "/webhooks/"+id+"/test", nil)
	if r.Status != 200 {
		t.Fatalf("test: %d %s", r.Status, r.Message)
	}
	var sent struct{ EventID, DeliveryID string }
	r.into(t, &sent)
	got := target.waitFor(1)
	if len(got) != 1 || got[0].Event != "webhook.test" || got[0].ID != sent.DeliveryID || got[0].Env.Event != "webhook.test" {
		t.Fatalf("received %+v, want one webhook.test with delivery %s", got, sent.DeliveryID)
	}
	var meta struct {
		EndpointID, URL, TriggeredBy, RequestID, TriggeredAt string
		Events                                               []string
	}
	if err := json.Unmarshal(got[0].Env.Data, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.EndpointID != id || meta.URL != target.url() || meta.TriggeredBy != "admin" || meta.RequestID != r.ReqID ||
		meta.TriggeredAt == "" || len(meta.Events) != 1 || meta.Events[0] != "payment.paid" {
		t.Fatalf("trigger metadata %+v (request %s)", meta, r.ReqID)
	}
	// One delivery for the event, ever: the dispatcher never routes it.
	var n int
	if err := e.app.DB.GetContext(context.Background(), &n, `SELECT count(*) FROM webhook_deliveries WHERE event_id = $1`, sent.EventID); err != nil || n != 1 {
		t.Fatalf("deliveries of the test event: %d (%v), want 1", n, err)
	}
	eventually(t, "the test delivery recorded DELIVERED", func() bool {
		d := e.admin("GET", "/deliveries/"+sent.DeliveryID, nil)
		return d.Status == 200 && d.m(t)["status"] == "DELIVERED"
	})
	if h := e.admin("GET", "/webhooks/"+dash+"/deliveries", nil); h.Status != 200 || h.m(t)["total"].(float64) != 0 {
		t.Fatalf("the other endpoint's history: %d %s", h.Status, h.Data)
	}
	if len(other.deliveries()) != 0 {
		t.Fatalf("the other endpoint received %+v", other.deliveries())
	}

	if u := e.call(m.Key, "PATCH", "/v1/webhooks/update/"+id, map[string]any{"status": "DISABLED"}); u.Status != 200 {
		t.Fatalf("disable: %d %s", u.Status, u.Message)
	}
	if x := e.admin("POST", "/webhooks/"+id+"/test", nil); x.Status != 400 {
		t.Fatalf("test of a disabled endpoint: %d %s", x.Status, x.Message)
	}
	if x := e.admin("POST", "/webhooks/whe_missing/test", nil); x.Status != 404 {
		t.Fatalf("test of an unknown endpoint: %d %s", x.Status, x.Message)
	}
	if x := e.request("POST", "/admin/v1/webhooks/"+id+"/test", nil, nil); x.Status != 401 {
		t.Fatalf("test without the admin token: %d", x.Status)
	}
}

// TestWebhookTestEventStaysOffTheWebSocket: a dashboard endpoint's
// webhook.test has no key, and keyless events go to every connection of
// the account: it reached every WebSocket client subscribed to "*",
// carrying the endpoint's URL to clients of other keys. A test event goes
// to its endpoint only. The marker committed after it is the positive
// signal that the tail has published everything before it.
func TestWebhookTestEventStaysOffTheWebSocket(t *testing.T) {
	t.Parallel()
	e := hookEnv(t)
	m := e.merchant()
	target := newReceiver(t)
	dash := e.endpoint(target, m.ID, "", "*")
	c := e.connect(m.Key)
	if f := c.subscribe("pattern", "*"); f["event"] != "subscribed" {
		t.Fatalf("subscribe: %v", f)
	}
	if r := e.admin("POST", "/webhooks/"+dash+"/test", nil); r.Status != 200 {
		t.Fatalf("test: %d %s", r.Status, r.Message)
	}
	if got := target.waitFor(1); len(got) != 1 || got[0].Event != "webhook.test" {
		t.Fatalf("the endpoint received %+v, want its webhook.test", got)
	}
	mark(t, e, m.ID, "transfer.internal.received")
	c.quietUntil("transfer.internal.received")
}
