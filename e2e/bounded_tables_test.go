package e2e

import (
	"context"
	"testing"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// A client cannot grow ws_acks with made-up event ids: only acks of real
// events are kept.
func TestWSAcksKeepOnlyRealEvents(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	c := e.createCharge(m, map[string]any{"amount": 3, "description": "ack me"})
	evs, err := db.EventsFor(context.Background(), e.app.DB, c["id"].(string))
	if err != nil || len(evs) == 0 {
		t.Fatalf("events: %v %v", evs, err)
	}
	fake := domain.NewID("evt_")
	if err := db.InsertWSAcks(context.Background(), e.app.DB, []db.WSAck{{EventID: evs[0].ID, APIKeyID: m.KeyID}, {EventID: fake, APIKeyID: m.KeyID}}); err != nil {
		t.Fatal(err)
	}
	var real, madeUp int
	e.app.DB.Get(&real, `SELECT count(*) FROM ws_acks WHERE event_id = $1`, evs[0].ID)
	e.app.DB.Get(&madeUp, `SELECT count(*) FROM ws_acks WHERE event_id = $1`, fake)
	if real != 1 || madeUp != 0 {
		t.Fatalf("acks kept: real %d, made-up %d", real, madeUp)
	}
}
