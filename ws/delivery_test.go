package ws

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/poll"
	"github.com/jangada/jangada/webhook"
)

// An event frame's id is the delivery id of the event to the connection's
// key (never the event id nor the record's), and an ack naming it is
// recorded against the event; an ack of an id the connection was never
// sent is not recorded.
func TestWSFrameIDIsTheKeysDeliveryID(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var acks []Ack
	h, url := sessionHub(t, Options{RecordAcks: func(_ context.Context, a []Ack) error {
		mu.Lock()
		acks = append(acks, a...)
		mu.Unlock()
		return nil
	}})
	c := authenticatedConn(t, url)
	c.WriteJSON(map[string]any{"action": "subscribe", "pattern": "payment.*"})
	if m := next(t, c); m["event"] != "subscribed" {
		t.Fatalf("subscribe: %v", m)
	}
	ev := domain.Event{ID: "evt_1", AccountID: "acct_1", Type: domain.EventPaymentCreated, ResourceID: "tx_1",
		CreatedAt: domain.Time{Time: time.Now()}, Data: json.RawMessage(`{"id":"tx_1"}`)}
	h.Publish(ev)
	m := next(t, c)
	want := webhook.SocketDeliveryID("evt_1", "key_1")
	if m["id"] != want || m["event"] != domain.EventPaymentCreated {
		t.Fatalf("frame %v, want id %s", m, want)
	}
	if want == webhook.DeliveryID("evt_1", "key_1") {
		t.Fatal("a socket delivery id equals an endpoint's")
	}
	c.WriteJSON(map[string]any{"action": "ack", "id": "dlv_made-up"})
	c.WriteJSON(map[string]any{"action": "ack", "id": want})
	poll.Until(t, 5*time.Second, "the ack to be recorded", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(acks) > 0
	})
	mu.Lock()
	defer mu.Unlock()
	if len(acks) != 1 || acks[0] != (Ack{EventID: "evt_1", KeyID: "key_1"}) {
		t.Fatalf("recorded %v, want the one ack of evt_1", acks)
	}
}

// A connection matches acks against its last recentDeliveries events,
// newest first, whatever the ring's position; older ones are forgotten.
func TestWSAckedEventRing(t *testing.T) {
	c := &conn{k: &domain.APIKey{ID: "key_1"}}
	for i := range recentDeliveries + 5 {
		c.delivered(domain.DerivedID("evt_", string(rune('a'+i))))
	}
	newest := domain.DerivedID("evt_", string(rune('a'+recentDeliveries+4)))
	if ev, ok := c.ackedEvent(webhook.SocketDeliveryID(newest, "key_1")); !ok || ev != newest {
		t.Fatalf("newest: %q %v", ev, ok)
	}
	if ev, ok := c.ackedEvent(newest); !ok || ev != newest {
		t.Fatalf("by event id: %q %v", ev, ok)
	}
	oldest := domain.DerivedID("evt_", "a")
	if _, ok := c.ackedEvent(webhook.SocketDeliveryID(oldest, "key_1")); ok {
		t.Fatal("an event past the ring was matched")
	}
	kept := domain.DerivedID("evt_", string(rune('a'+5)))
	if ev, ok := c.ackedEvent(webhook.SocketDeliveryID(kept, "key_1")); !ok || ev != kept {
		t.Fatalf("oldest kept: %q %v", ev, ok)
	}
}
