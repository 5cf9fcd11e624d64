package e2e

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/db"
)

// received is one delivery as a receiver saw it.
type received struct {
	ID, Event, SigHeader string
	Body                 []byte
	Env                  struct {
		ID        string          `json:"id"`
		Event     string          `json:"event"`
		CreatedAt string          `json:"createdAt"`
		Data      json.RawMessage `json:"data"`
	}
	At time.Time
}

// receiver is a merchant's webhook endpoint: it checks both signatures
// with its own code (not package verify) and records what it accepted.
type receiver struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	secret string
	got    []received
	// failFirst answers 500 to the first attempt of each delivery id.
	failFirst bool
	tries     map[string]int
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{t: t, tries: map[string]int{}}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) url() string { return r.srv.URL + "/hooks" }

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := checkSignatures(r.secret, req.Header, body); err != nil {
		r.t.Errorf("receiver %s: %v", r.url(), err)
		http.Error(w, err.Error(), 400)
		return
	}
	id := req.Header.Get("x-jangada-delivery")
	r.tries[id]++
	if r.failFirst && r.tries[id] == 1 {
		http.Error(w, "try later", 500)
		return
	}
	rec := received{ID: id, Event: req.Header.Get("x-jangada-event"), SigHeader: req.Header.Get("x-jangada-signature"), Body: body, At: time.Now()}
	if err := json.Unmarshal(body, &rec.Env); err != nil {
		r.t.Errorf("body %s: %v", body, err)
	}
	r.got = append(r.got, rec)
	w.WriteHeader(200)
}

// checkSignatures verifies a delivery independently of the server's code.
func checkSignatures(secret string, h http.Header, body []byte) error {
	if h.Get("Content-Type") != "application/json" {
		return fmt.Errorf("content type %q", h.Get("Content-Type"))
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	if want := "sha256=" + hex.EncodeToString(mac.Sum(nil)); !hmac.Equal([]byte(h.Get("x-jangada-signature")), []byte(want)) {
		return fmt.Errorf("x-jangada-signature %q, want %q", h.Get("x-jangada-signature"), want)
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) != 32 {
		return fmt.Errorf("secret %q is not whsec_ + base64 of 32 bytes", secret)
	}
	id, ts := h.Get("webhook-id"), h.Get("webhook-timestamp")
	if id == "" || id != h.Get("x-jangada-delivery") {
		return fmt.Errorf("webhook-id %q vs x-jangada-delivery %q", id, h.Get("x-jangada-delivery"))
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || time.Since(time.Unix(sec, 0)).Abs() > 5*time.Minute {
		return fmt.Errorf("webhook-timestamp %q", ts)
	}
	mac = hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "."))
	mac.Write(body)
	if want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)); h.Get("webhook-signature") != want {
		return fmt.Errorf("webhook-signature %q, want %q", h.Get("webhook-signature"), want)
	}
	return nil
}

func (r *receiver) deliveries() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

func (r *receiver) waitFor(n int) []received {
	r.t.Helper()
	eventually(r.t, fmt.Sprintf("%d deliveries at %s", n, r.url()), func() bool { return len(r.deliveries()) >= n })
	return r.deliveries()
}

// hookEnv is an env whose webhooks may reach the local receivers, with a
// short retry schedule (through configuration, as production reads it): an
// app of the test's own, since the shared one keeps the production defaults.
func hookEnv(t *testing.T, retries ...time.Duration) *env {
	cfg := testConfig(t)
	cfg.WebhookAllowPrivate = true
	cfg.WebhookRetrySchedule = retries
	if retries == nil {
		cfg.WebhookRetrySchedule = []time.Duration{300 * time.Millisecond, 300 * time.Millisecond}
	}
	return startApp(t, cfg, app.Options{API: true, Worker: true})
}

// endpoint creates an endpoint for r with key (or, key "", a dashboard one).
func (e *env) endpoint(r *receiver, accountID, key string, events ...string) string {
	e.t.Helper()
	body := map[string]any{"url": r.url(), "events": events}
	var res resp
	if key == "" {
		res = e.admin("POST", "/accounts/"+accountID+"/webhooks", body)
	} else {
		res = e.call(key, "POST", "/v1/webhooks/create", body)
	}
	if res.Status != 200 {
		e.t.Fatalf("create endpoint: %d %s", res.Status, res.Message)
	}
	m := res.m(e.t)
	r.secret = m["secret"].(string)
	return m["id"].(string)
}

func (e *env) secondKey(m merchant) merchant {
	e.t.Helper()
	return e.keyFor(m, "*")
}

func kinds(rs []received) map[string]int {
	out := map[string]int{}
	for _, r := range rs {
		out[r.Event+" "+string(mustField(r.Env.Data, "id"))]++
	}
	return out
}

func mustField(raw json.RawMessage, name string) string {
	var m map[string]any
	json.Unmarshal(raw, &m)
	s, _ := m[name].(string)
	return s
}

// TestWebhookChargeFlowRouting: every event of the charge flow reaches the
// endpoints the routing rules select, once per delivery id, signed, and
// never the others.
func TestWebhookChargeFlowRouting(t *testing.T) {
	t.Parallel()
	e := hookEnv(t)
	a := e.merchant()
	b := e.secondKey(a)
	other := e.merchant()
	rA, rAPaid, rB, rDash, rOther := newReceiver(t), newReceiver(t), newReceiver(t), newReceiver(t), newReceiver(t)
	e.endpoint(rA, a.ID, a.Key, "*")
	e.endpoint(rAPaid, a.ID, a.Key, "payment.paid")
	e.endpoint(rB, a.ID, b.Key, "payment.*")
	dash := e.endpoint(rDash, a.ID, "", "*")
	e.endpoint(rOther, other.ID, "", "*")

	c1 := e.createCharge(a, map[string]any{"amount": 12.5, "description": "Pedido A"})["id"].(string)
	if r := e.call(a.Key, "POST", "/v1/sandbox/payment-pix/"+c1+"/pay", map[string]any{"payerName": "Ana"}); r.Status != 200 {
		t.Fatalf("pay: %d %s", r.Status, r.Message)
	}
	c2 := e.createCharge(b, map[string]any{"amount": 7, "description": "Pedido B"})["id"].(string)
	e.call(b.Key, "POST", "/v1/sandbox/payment-pix/"+c2+"/expire", nil)

	want := map[*receiver]map[string]int{
		rA:     {"payment.created " + c1: 1, "payment.paid " + c1: 1},
		rAPaid: {"payment.paid " + c1: 1},
		rB:     {"payment.created " + c2: 1, "payment.pix.expired " + c2: 1},
		rDash:  {"payment.created " + c1: 1, "payment.paid " + c1: 1, "payment.created " + c2: 1, "payment.pix.expired " + c2: 1},
	}
	for r, w := range want {
		r.waitFor(len(w))
	}
	// Positive signal that no duplicate is still on its way: the charges'
	// events are all dispatched (their deliveries started) and every
	// delivery of them has ended.
	eventually(t, "every delivery of both charges to end", func() bool {
		var open int
		err := e.app.DB.Get(&open, `
			SELECT (SELECT count(*) FROM events_undispatched q JOIN events ev ON ev.seq = q.seq WHERE ev.resource_id IN ($1, $2))
			     + (SELECT count(*) FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id
			        WHERE ev.resource_id IN ($1, $2) AND d.status NOT IN ($3, $4))`,
			c1, c2, db.DeliveryDelivered, db.DeliveryFailed)
		return err == nil && open == 0
	})
	stored := map[string]json.RawMessage{}
	for _, id := range []string{c1, c2} {
		evs, _ := db.EventsFor(context.Background(), e.app.DB, id)
		for _, ev := range evs {
			stored[ev.Type+" "+id] = ev.Data
		}
	}
	ids := map[string]bool{}
	for r, w := range want {
		got := r.deliveries()
		if k := kinds(got); fmt.Sprint(k) != fmt.Sprint(w) {
			t.Errorf("%s got %v, want %v", r.url(), k, w)
		}
		for _, d := range got {
			if ids[d.ID] {
				t.Errorf("delivery id %s seen twice", d.ID)
			}
			ids[d.ID] = true
			if d.Env.ID != d.ID || d.Env.ID == mustField(d.Env.Data, "id") || d.Env.Event != d.Event || d.Env.CreatedAt == "" {
				t.Errorf("envelope %s", d.Body)
			}
			var gotData, storedData any
			json.Unmarshal(d.Env.Data, &gotData)
			json.Unmarshal(stored[d.Event+" "+mustField(d.Env.Data, "id")], &storedData)
			if fmt.Sprint(gotData) != fmt.Sprint(storedData) {
				t.Errorf("data %s differs from the stored record %s", d.Env.Data, stored[d.Event+" "+mustField(d.Env.Data, "id")])
			}
			for _, internal := range []string{"accountId", "provider", "metadata", "direction", "updatedAt"} {
				if strings.Contains(string(d.Env.Data), `"`+internal+`"`) {
					t.Errorf("data exposes %s", internal)
				}
			}
		}
	}
	if n := len(rOther.deliveries()); n != 0 {
		t.Errorf("another account's endpoint got %d deliveries", n)
	}
	// The history is on the admin API, one attempt each.
	h := e.admin("GET", "/webhooks/"+dash+"/deliveries", nil).m(t)
	if h["total"] != 4.0 {
		t.Fatalf("history: %v", h)
	}
	for _, it := range h["items"].([]any) {
		d := it.(map[string]any)
		at := d["history"].([]any)
		if d["status"] != "DELIVERED" || len(at) != 1 || at[0].(map[string]any)["statusCode"] != 200.0 {
			t.Errorf("delivery %v", d)
		}
	}
}

func TestWebhookEndpointRoutes(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t) // JANGADA_WEBHOOK_ALLOW_PRIVATE off
	m := e.merchant()
	other := e.merchant()
	bad := []struct {
		body  any
		field string
	}{
		{map[string]any{"url": "https://example.com/h"}, "events"},
		{map[string]any{"url": "https://example.com/h", "events": []string{}}, "events"},
		{map[string]any{"url": "https://example.com/h", "events": []string{"payment.payed"}}, "events"},
		{map[string]any{"url": "https://example.com/h", "events": []string{"foo.*"}}, "events"},
		{map[string]any{"url": "https://example.com/h", "events": "payment.paid"}, "events"},
		{map[string]any{"events": []string{"*"}}, "url"},
		{map[string]any{"url": "ftp://example.com/h", "events": []string{"*"}}, "url"},
		{map[string]any{"url": "example.com/h", "events": []string{"*"}}, "url"},
		{map[string]any{"url": "http://127.0.0.1:9/h", "events": []string{"*"}}, "url"},
		{map[string]any{"url": "http://169.254.169.254/latest", "events": []string{"*"}}, "url"},
		{map[string]any{"url": "http://localhost/h", "events": []string{"*"}}, "url"},
	}
	for _, b := range bad {
		if r := e.call(m.Key, "POST", "/v1/webhooks/create", b.body); r.Status != 400 || !strings.Contains(r.Message, b.field) {
			t.Errorf("%v: %d %s", b.body, r.Status, r.Message)
		}
	}
	r := e.call(m.Key, "POST", "/v1/webhooks/create", map[string]any{"url": "https://example.com/h", "events": []string{"payment.*", "transfer.completed", "payment.*"}})
	if r.Status != 200 {
		t.Fatalf("create: %d %s", r.Status, r.Message)
	}
	c := r.m(t)
	secret := c["secret"].(string)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if !strings.HasPrefix(secret, "whsec_") || err != nil || len(raw) != 32 {
		t.Fatalf("secret %q", secret)
	}
	id := c["id"].(string)
	if fmt.Sprint(c["events"]) != "[payment.* transfer.completed]" || c["scope"] != "key" || c["apiKeyId"] != m.KeyID {
		t.Fatalf("created %v", c)
	}
	g := e.call(m.Key, "GET", "/v1/webhooks/get/"+id, nil)
	l := e.call(m.Key, "GET", "/v1/webhooks/list", nil)
	for _, x := range []resp{g, l} {
		if x.Status != 200 || strings.Contains(string(x.Data), "whsec_") || strings.Contains(string(x.Data), "secret") ||
			strings.Contains(string(x.Data), "accountId") || strings.Contains(string(x.Data), "updatedAt") {
			t.Fatalf("read exposes the secret or internals: %d %s", x.Status, x.Data)
		}
	}
	if l.m(t)["total"] != 1.0 {
		t.Fatalf("list %s", l.Data)
	}
	u := e.call(m.Key, "PATCH", "/v1/webhooks/update/"+id, map[string]any{"events": []string{"*"}, "status": "DISABLED"})
	if u.Status != 200 || fmt.Sprint(u.m(t)["events"]) != "[*]" || u.m(t)["status"] != "DISABLED" {
		t.Fatalf("update: %d %s", u.Status, u.Data)
	}
	if u := e.call(m.Key, "PATCH", "/v1/webhooks/update/"+id, map[string]any{"events": []string{"nope"}}); u.Status != 400 || !strings.Contains(u.Message, "events") {
		t.Fatalf("bad update: %d %s", u.Status, u.Message)
	}
	if x := e.call(other.Key, "GET", "/v1/webhooks/get/"+id, nil); x.Status != 404 {
		t.Fatalf("another account reads it: %d", x.Status)
	}
	if x := e.call(other.Key, "DELETE", "/v1/webhooks/delete/"+id, nil); x.Status != 404 {
		t.Fatalf("another account deletes it: %d", x.Status)
	}
	if x := e.call(m.Key, "DELETE", "/v1/webhooks/delete/"+id, nil); x.Status != 200 {
		t.Fatalf("delete: %d", x.Status)
	}
	if x := e.call(m.Key, "GET", "/v1/webhooks/get/"+id, nil); x.Status != 404 {
		t.Fatalf("deleted endpoint: %d", x.Status)
	}
	// Dashboard endpoint through the admin API.
	d := e.admin("POST", "/accounts/"+m.ID+"/webhooks", map[string]any{"url": "https://example.com/dash", "events": []string{"*"}})
	if d.Status != 200 || d.m(t)["scope"] != "account" || !strings.HasPrefix(d.m(t)["secret"].(string), "whsec_") {
		t.Fatalf("dashboard endpoint: %d %s", d.Status, d.Data)
	}
	if x := e.admin("POST", "/accounts/acc_nope/webhooks", map[string]any{"url": "https://example.com/dash", "events": []string{"*"}}); x.Status != 404 {
		t.Fatalf("unknown account: %d", x.Status)
	}
	if x := e.call(m.Key, "POST", "/v1/webhooks/create", map[string]any{"url": "https://example.com/h", "events": []string{"*"}}); x.Status != 200 {
		t.Fatalf("re-create: %d", x.Status)
	}
	perm := e.merchant("webhooks/get")
	if x := e.call(perm.Key, "POST", "/v1/webhooks/create", map[string]any{"url": "https://example.com/h", "events": []string{"*"}}); x.Status != 403 {
		t.Fatalf("without webhooks/create: %d", x.Status)
	}
}
