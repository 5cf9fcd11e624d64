package e2e

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jangada/jangada/app"
)

// Webhook deliveries run on their own task queue and worker, with few
// slots and a bound per endpoint: a merchant whose receiver hangs, flooded
// with deliveries, fills only those slots, and another merchant's charges
// still settle at once.
func TestHangingWebhookReceiverDelaysNoSettlement(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.WebhookAllowPrivate = true
	cfg.WebhookConcurrency, cfg.WebhookPerEndpoint = 2, 1
	e := startApp(t, cfg, app.Options{API: true, Worker: true})

	release := make(chan struct{})
	var inFlight atomic.Int32
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inFlight.Add(1)
		defer inFlight.Add(-1)
		select { // hangs until the test ends (or the sender gives up)
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); hang.Close() })

	slow, m := e.merchant(), e.merchant()
	if r := e.call(slow.Key, "POST", "/v1/webhooks/create", map[string]any{"url": hang.URL + "/hooks", "events": []string{"*"}}); r.Status != 200 {
		t.Fatalf("endpoint: %d %s", r.Status, r.Message)
	}
	for range 12 { // a flood of deliveries to the hanging receiver
		e.createCharge(slow, map[string]any{"amount": 5, "description": "flood"})
	}
	// Positive signal that the flood is on: the receiver holds an attempt.
	eventually(t, "a delivery to hang at the receiver", func() bool { return inFlight.Load() > 0 })

	for i := range 3 {
		id := e.createCharge(m, map[string]any{"amount": 10, "description": "on time"})["id"].(string)
		if r := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", nil); r.Status != 200 {
			t.Fatalf("pay %d: %d %s", i, r.Status, r.Message)
		}
		// Far below the 10 s a hanging receiver holds an attempt.
		eventuallyWithin(t, 5*time.Second, "the charge to settle while the receiver hangs", func() bool {
			return e.call(m.Key, "GET", "/v1/payment-pix/status/"+id, nil).m(t)["status"] == "COMPLETED"
		})
	}
	if n := inFlight.Load(); n > 1 {
		t.Fatalf("%d attempts in flight at the hanging endpoint, more than its bound of 1", n)
	}
	e.verifyLedger()
}
