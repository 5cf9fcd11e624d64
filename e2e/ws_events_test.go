package e2e

import (
	"testing"

	"github.com/jangada/jangada/app"
)

func TestWSEventsFollowTheKeyRuleInOrder(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	a := e.merchant()
	b := e.secondKey(a)
	ca, cb := e.connect(a.Key), e.connect(b.Key)
	ca.subscribe("pattern", "payment.*")
	cb.subscribe("pattern", "*")
	id := e.createCharge(a, map[string]any{"amount": 9, "description": "Ordem"})["id"].(string)
	e.call(a.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", nil)
	envelopeOK(t, e, a.KeyID, ca.read(), "payment.created", id)
	envelopeOK(t, e, a.KeyID, ca.read(), "payment.paid", id)
	mark(t, e, a.ID, "payment.marker") // keyless: both connections get it
	ca.quietUntil("payment.marker")
	cb.quietUntil("payment.marker") // another key's transactions are not its events

	// A paymentId subscription: the payment's events, then removed by the
	// terminal event while the socket stays open.
	cp := e.connect(b.Key)
	id2 := e.createCharge(a, map[string]any{"amount": 4, "description": "Por id"})["id"].(string)
	if f := cp.subscribe("paymentId", id2); f["event"] != "subscribed" || f["paymentId"] != id2 || f["expiresAt"] == nil {
		t.Fatalf("subscribe paymentId: %v", f)
	}
	e.call(a.Key, "POST", "/v1/sandbox/payment-pix/"+id2+"/pay", nil)
	f := cp.read()
	if f["event"] == "payment.created" { // committed before the subscription, published after it
		f = cp.read()
	}
	envelopeOK(t, e, b.KeyID, f, "payment.paid", id2)
	// A pattern that only the marker below matches.
	if f := cp.subscribe("pattern", "test.marker"); f["event"] != "subscribed" {
		t.Fatalf("unexpected frame %v", f["_raw"])
	}
	insertEvent(t, e.app.DB, a.ID, &a.KeyID, "payment.refunded", id2)
	cp.send(map[string]any{"action": "ping"})
	if f := cp.read(); f["event"] != "pong" {
		t.Fatalf("socket after the subscription ended: %v", f)
	}
	mark(t, e, a.ID, "test.marker")
	cp.quietUntil("test.marker") // the later event is not delivered
}

// TestWSKeylessEventsReachTheAccount: events without a key (as
// transfer.internal.received is written for the destination account) go to
// every connection of that account, and to no other.
func TestWSKeylessEventsReachTheAccount(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	a, other := e.merchant(), e.merchant()
	b := e.secondKey(a)
	ca, cb, co := e.connect(a.Key), e.connect(b.Key), e.connect(other.Key)
	for _, c := range []*wsClient{ca, cb, co} {
		c.subscribe("pattern", "transfer.*")
	}
	insertEvent(t, e.app.DB, a.ID, nil, "transfer.internal.received", "it_1")
	for _, c := range []*wsClient{ca, cb} {
		if f := c.read(); f["event"] != "transfer.internal.received" {
			t.Fatalf("frame %v", f)
		}
	}
	mark(t, e, other.ID, "transfer.marker")
	co.quietUntil("transfer.marker")
}

func TestWSTwoHubsOneDatabase(t *testing.T) {
	t.Parallel()
	e := wsEnv(t, nil) // its own app: a second API process joins its database
	cfg2 := e.app.Cfg
	cfg2.HTTPAddr, cfg2.WSAddr = "127.0.0.1:0", "127.0.0.1:0"
	e2 := startApp(t, cfg2, app.Options{API: true})
	m := e.merchant()
	c1, c2 := e.connect(m.Key), e2.connect(m.Key)
	c1.subscribe("pattern", "*")
	c2.subscribe("pattern", "payment.created")
	id := e.createCharge(m, map[string]any{"amount": 2, "description": "Dois hubs"})["id"].(string)
	f1, f2 := c1.read(), c2.read()
	envelopeOK(t, e, m.KeyID, f1, "payment.created", id)
	created := envelopeOK(t, e, m.KeyID, f2, "payment.created", id)
	if f1["_raw"] != f2["_raw"] {
		t.Fatalf("hubs sent different frames:\n%s\n%s", f1["_raw"], f2["_raw"])
	}
	// A pattern that only the marker below matches.
	if f := c2.subscribe("pattern", "test.marker"); f["event"] != "subscribed" {
		t.Fatalf("unexpected frame %v", f["_raw"])
	}
	mark(t, e, m.ID, "test.marker") // each hub's tail publishes it after the charge's event
	c1.quietUntil("test.marker")    // exactly once
	c2.quietUntil("test.marker")
	// The ack names the frame's delivery id; it is recorded against the event.
	c2.send(map[string]any{"action": "ack", "id": f2["id"]})
	eventually(t, "the ack to be recorded", func() bool {
		var n int
		e.app.DB.Get(&n, `SELECT count(*) FROM ws_acks WHERE event_id = $1 AND api_key_id = $2`, created, m.KeyID)
		return n == 1
	})
}
