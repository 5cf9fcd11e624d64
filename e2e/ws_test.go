package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/webhook"
)

// wsClient is a real WebSocket client of the gateway.
type wsClient struct {
	t *testing.T
	c *websocket.Conn
}

func (e *env) dialWS(query string, header http.Header) (*wsClient, *http.Response, error) {
	c, res, err := websocket.DefaultDialer.Dial(e.ws+query, header)
	if err != nil {
		return nil, res, err
	}
	e.t.Cleanup(func() { c.Close() })
	return &wsClient{t: e.t, c: c}, res, nil
}

// connect opens an authenticated connection (token query).
func (e *env) connect(key string) *wsClient {
	e.t.Helper()
	c, res, err := e.dialWS("?token="+key, nil)
	if err != nil {
		e.t.Fatalf("dial: %v %v", err, res)
	}
	if m := c.read(); m["event"] != "authenticated" || m["version"] != 1.0 {
		e.t.Fatalf("first frame %v", m)
	}
	return c
}

func (c *wsClient) send(v any) {
	c.t.Helper()
	if err := c.c.WriteJSON(v); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// next reads one frame within d; nil on timeout.
func (c *wsClient) next(d time.Duration) (map[string]any, error) {
	c.c.SetReadDeadline(time.Now().Add(d))
	_, raw, err := c.c.ReadMessage()
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		c.t.Fatalf("frame %s: %v", raw, err)
	}
	m["_raw"] = string(raw)
	return m, nil
}

func (c *wsClient) read() map[string]any {
	c.t.Helper()
	for {
		m, err := c.next(10 * time.Second)
		if err != nil {
			c.t.Fatalf("read: %v", err)
		}
		if m["event"] != "ping" { // heartbeats are not what tests wait for
			return m
		}
	}
}

// quietUntil asserts that no business frame arrives before the marker
// event (see mark): the positive signal that everything committed before
// the marker has been published and nothing more is on its way.
func (c *wsClient) quietUntil(marker string) {
	c.t.Helper()
	if m := c.read(); m["event"] != marker {
		c.t.Fatalf("unexpected frame %v", m["_raw"])
	}
}

// mark commits an event without a key for the account after everything
// before it: the outbox tail publishes in commit order, so a connection
// that gets it has been sent every earlier event it was going to get.
func mark(t *testing.T, e *env, accountID, typ string) {
	t.Helper()
	insertEvent(t, e.app.DB, accountID, nil, typ, "marker")
}

// closed waits for the server to close the connection and returns the code.
func (c *wsClient) closed(within time.Duration) int {
	c.t.Helper()
	deadline := time.Now().Add(within)
	for {
		c.c.SetReadDeadline(deadline)
		_, _, err := c.c.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code
		}
		c.t.Fatalf("connection not closed with a code: %v", err)
	}
}

func (c *wsClient) subscribe(field, value string) map[string]any {
	c.t.Helper()
	c.send(map[string]any{"action": "subscribe", field: value})
	return c.read()
}

func wsEnv(t *testing.T, tune func(*config.Config)) *env {
	cfg := testConfig(t)
	if tune != nil {
		tune(&cfg)
	}
	return startApp(t, cfg, app.Options{API: true, Worker: true})
}

func TestWSAuthentication(t *testing.T) {
	t.Parallel()
	e := wsEnv(t, func(c *config.Config) { c.WSAuthTimeout = 500 * time.Millisecond })
	m := e.merchant()
	e.connect(m.Key) // ?token=
	h, _, err := e.dialWS("", http.Header{"Authorization": {"Bearer " + m.Key}})
	if err != nil {
		t.Fatal(err)
	}
	if f := h.read(); f["event"] != "authenticated" || f["version"] != 1.0 {
		t.Fatalf("bearer: %v", f)
	}
	c, _, err := e.dialWS("", nil)
	if err != nil {
		t.Fatal(err)
	}
	c.send(map[string]any{"action": "subscribe", "pattern": "*"})
	if f := c.read(); f["event"] != "error" || f["code"] != "UNAUTHENTICATED" {
		t.Fatalf("subscribe before auth: %v", f)
	}
	c.send(map[string]any{"action": "authenticate", "apiKey": m.Key, "extra": "ignored"})
	if f := c.read(); f["event"] != "authenticated" || f["version"] != 1.0 {
		t.Fatalf("message auth: %v", f)
	}
	if _, res, err := e.dialWS("?token=jgd_live_wrong", nil); err == nil || res == nil || res.StatusCode != 401 {
		t.Fatalf("bad token: %v %v", err, res)
	}
	bad, _, _ := e.dialWS("", nil)
	bad.send(map[string]any{"action": "authenticate", "apiKey": "jgd_live_wrong"})
	if f := bad.read(); f["code"] != "UNAUTHORIZED" {
		t.Fatalf("bad key message: %v", f)
	}
	if code := bad.closed(2 * time.Second); code != 1008 {
		t.Fatalf("bad key close %d", code)
	}
	idle, _, _ := e.dialWS("", nil)
	began := time.Now()
	if code := idle.closed(3 * time.Second); code != 1008 || time.Since(began) < 400*time.Millisecond {
		t.Fatalf("auth timeout close %d after %v", code, time.Since(began))
	}
	if _, res, err := e.dialWS("?token="+m.Key, http.Header{"Origin": {"https://evil.example"}}); err == nil || res.StatusCode != 403 {
		t.Fatalf("browser origin accepted: %v", err)
	}
}

func TestWSIPAllowlist(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	k := e.admin("POST", "/accounts/"+m.ID+"/keys", map[string]any{"name": "ip", "permissions": []string{"*"}, "ipAllowlist": []string{"10.0.0.0/8"}})
	key := k.m(t)["key"].(string)
	if _, res, err := e.dialWS("?token="+key, nil); err == nil || res == nil || res.StatusCode != 403 {
		t.Fatalf("outside allowlist: %v %v", err, res)
	}
	c, _, _ := e.dialWS("", nil)
	c.send(map[string]any{"action": "authenticate", "apiKey": key})
	if f := c.read(); f["event"] != "error" {
		t.Fatalf("message auth outside allowlist: %v", f)
	}
	if code := c.closed(2 * time.Second); code != 1008 {
		t.Fatalf("close %d", code)
	}
}

func TestWSRevocationClosesAtOnceAcrossProcesses(t *testing.T) {
	t.Parallel()
	e := wsEnv(t, nil) // its own app: a second API process joins its database
	cfg2 := e.app.Cfg
	cfg2.HTTPAddr, cfg2.WSAddr = "127.0.0.1:0", "127.0.0.1:0"
	e2 := startApp(t, cfg2, app.Options{API: true}) // a second API process
	m := e.merchant()
	keep := e.secondKey(m)
	c1, c2, c3 := e.connect(m.Key), e.connect(m.Key), e2.connect(m.Key)
	other := e2.connect(keep.Key)
	began := time.Now()
	if r := e.admin("DELETE", "/keys/"+m.KeyID, nil); r.Status != 200 {
		t.Fatalf("revoke: %d", r.Status)
	}
	for i, c := range []*wsClient{c1, c2, c3} {
		if code := c.closed(3 * time.Second); code != 1008 {
			t.Fatalf("connection %d closed with %d", i, code)
		}
		t.Logf("connection %d closed after %v", i, time.Since(began))
	}
	if d := time.Since(began); d > time.Second {
		t.Fatalf("closing took %v", d)
	}
	other.send(map[string]any{"action": "ping"})
	if f := other.read(); f["event"] != "pong" {
		t.Fatalf("another key's connection: %v", f)
	}
	if _, res, err := e.dialWS("?token="+m.Key, nil); err == nil || res.StatusCode != 401 {
		t.Fatalf("revoked key reconnects: %v", err)
	}
}

func TestWSSubscriptionRules(t *testing.T) {
	t.Parallel()
	e := wsEnv(t, func(c *config.Config) { c.WSMessageRate, c.WSMessageBurst = 1000, 1000 })
	m, other := e.merchant(), e.merchant()
	theirs := e.createCharge(other, map[string]any{"amount": 5, "description": "Deles"})["id"].(string)
	c := e.connect(m.Key)
	for _, bad := range []string{"Payment.*", "payment paid", strings.Repeat("a", 65), "payment.$"} {
		if f := c.subscribe("pattern", bad); f["event"] != "error" || f["code"] != "INVALID_PATTERN" {
			t.Fatalf("pattern %q: %v", bad, f)
		}
	}
	if f := c.subscribe("pattern", strings.Repeat("a", 64)); f["event"] != "subscribed" {
		t.Fatalf("64-char pattern: %v", f)
	}
	for range 2 { // idempotent
		if f := c.subscribe("pattern", "payment.*"); f["event"] != "subscribed" || f["pattern"] != "payment.*" {
			t.Fatalf("subscribe: %v", f)
		}
	}
	for _, id := range []string{theirs, "00000000-0000-0000-0000-000000000000"} {
		if f := c.subscribe("paymentId", id); f["event"] != "error" || f["code"] != "FORBIDDEN" {
			t.Fatalf("paymentId %s: %v", id, f)
		}
	}
	c.send(map[string]any{"action": "unsubscribe", "pattern": "payment.*"})
	if f := c.read(); f["event"] != "unsubscribed" || f["pattern"] != "payment.*" {
		t.Fatalf("unsubscribe: %v", f)
	}
	// 1 left (the 64-char one): fill to 100, the 101st is refused.
	for i := 1; i < 100; i++ {
		if f := c.subscribe("pattern", "p"+strings.Repeat("x", i%60)+string(rune('a'+i/60))); f["event"] != "subscribed" {
			t.Fatalf("subscription %d: %v", i+1, f)
		}
	}
	if f := c.subscribe("pattern", "one.too.many"); f["event"] != "error" || f["code"] != "SUBSCRIPTION_LIMIT" {
		t.Fatalf("101st: %v", f)
	}
	if f := c.subscribe("pattern", "payx"+"a"); f["event"] != "error" {
		t.Fatalf("101st: %v", f)
	}
	c.send(map[string]any{"action": "ping", "unknown": map[string]any{"nested": true}})
	if f := c.read(); f["event"] != "pong" {
		t.Fatalf("ping with unknown fields: %v", f)
	}
	c.send(map[string]any{"action": "dance"})
	if f := c.read(); f["event"] != "error" {
		t.Fatalf("unknown action: %v", f)
	}
}

// envelopeOK checks a business frame against the stored event: the same
// data, and as id the delivery id of the event to the connection's key.
func envelopeOK(t *testing.T, e *env, keyID string, f map[string]any, event, resource string) string {
	t.Helper()
	data, _ := f["data"].(map[string]any)
	if f["event"] != event || data["id"] != resource || f["id"] == nil || f["id"] == data["id"] || f["createdAt"] == nil {
		t.Fatalf("frame %v, want %s of %s", f["_raw"], event, resource)
	}
	evs, _ := db.EventsFor(context.Background(), e.app.DB, resource)
	for _, ev := range evs {
		if ev.Type == event {
			var stored any
			json.Unmarshal(ev.Data, &stored)
			if b1, _ := json.Marshal(stored); string(b1) != mustMarshal(data) {
				t.Fatalf("data %s differs from the stored record %s", mustMarshal(data), b1)
			}
			if want := webhook.SocketDeliveryID(ev.ID, keyID); f["id"] != want {
				t.Fatalf("frame id %v, want the delivery id %s of event %s", f["id"], want, ev.ID)
			}
			return ev.ID
		}
	}
	t.Fatalf("no stored %s for %s", event, resource)
	return ""
}

func mustMarshal(v any) string { b, _ := json.Marshal(v); return string(b) }

// insertEvent commits an outbox event the way a state change does.
func insertEvent(t *testing.T, d *sqlx.DB, accountID string, keyID *string, typ, resource string) {
	t.Helper()
	err := db.InTx(context.Background(), d, func(tx *sqlx.Tx) error {
		_, err := db.InsertEvent(context.Background(), tx, accountID, keyID, typ, resource, map[string]any{"id": resource, "status": "TEST"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWSHeartbeat is not parallel: answering every ping within its 250 ms
// pong wait must not depend on how busy the other tests keep the machine.
func TestWSHeartbeat(t *testing.T) {
	t.Parallel()
	e := wsEnv(t, func(c *config.Config) { c.WSPingPeriod, c.WSPongWait = 400*time.Millisecond, 250*time.Millisecond })
	m := e.merchant()
	c := e.connect(m.Key)
	c.send(map[string]any{"action": "ping"})
	if f := c.read(); f["event"] != "pong" {
		t.Fatalf("pong: %v", f)
	}
	// Answer every server ping for a few periods: the connection stays.
	answered := 0
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		f, err := c.next(time.Second)
		if err != nil {
			t.Fatalf("answered connection dropped: %v", err)
		}
		if f["event"] == "ping" {
			answered++
			c.send(map[string]any{"action": "ping"})
		}
	}
	if answered < 3 {
		t.Fatalf("only %d server pings in 2s", answered)
	}
	silent := e.connect(m.Key)
	began := time.Now()
	if code := silent.closed(3 * time.Second); code != 1008 || time.Since(began) > 1500*time.Millisecond {
		t.Fatalf("unanswered heartbeat: close %d after %v", code, time.Since(began))
	}
}

func TestWSFrameLimit(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	c := e.connect(m.Key)
	big := `{"action":"ping","pad":"` + strings.Repeat("x", 60<<10) + `"}`
	c.c.WriteMessage(websocket.TextMessage, []byte(big))
	if f := c.read(); f["event"] != "pong" {
		t.Fatalf("60 KB frame: %v", f)
	}
	c.c.WriteMessage(websocket.TextMessage, []byte(`{"action":"ping","pad":"`+strings.Repeat("x", 64<<10)+`"}`))
	if code := c.closed(2 * time.Second); code != 1009 {
		t.Fatalf("over 64 KB: close %d", code)
	}
}

func TestWSRateLimit(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	c := e.connect(m.Key)
	for range 60 {
		c.send(map[string]any{"action": "ping"})
	}
	limited := false
	for range 60 {
		f, err := c.next(2 * time.Second)
		if err != nil {
			break
		}
		if f["event"] == "error" && f["code"] == "RATE_LIMIT" {
			limited = true
			break
		}
	}
	if !limited {
		t.Fatal("no RATE_LIMIT after a burst of 60 messages")
	}
	for range 300 {
		if err := c.c.WriteJSON(map[string]any{"action": "ping"}); err != nil {
			break
		}
	}
	if code := c.closed(3 * time.Second); code != 1008 {
		t.Fatalf("flood: close %d", code)
	}
}
