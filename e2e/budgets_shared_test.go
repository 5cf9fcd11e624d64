package e2e

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/domain"
)

// Two API processes on one database and one Redis (JANGADA_REDIS_URL) hold
// one budget: a key's 10 requests a minute are 10 whichever process
// answers, and the RateLimit-Remaining of each counts the other's; the
// key's WebSocket cap is one across both; an e-mail's failed logins are
// counted across both.
func TestBudgetsHoldAcrossReplicas(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.RedisURL, cfg.RedisPrefix, cfg.APIReplicas = "redis://127.0.0.1:6379/0", "e2e:"+domain.NewID("")+":", 2
	// A bound far above a loaded machine's scheduling delays: a call past
	// the default 10 ms makes a process count alone for that request (the
	// fallback, tested in package ratelimit), which is not this test's
	// subject.
	cfg.WSMaxPerKey, cfg.RedisTimeout = 1, time.Second
	a := startApp(t, cfg, app.Options{API: true, Worker: true})
	b := startApp(t, cfg, app.Options{API: true})
	m := a.merchant()
	k := a.admin("POST", "/accounts/"+m.ID+"/keys", map[string]any{"name": "limited", "permissions": []string{"*"}, "rateLimitPerMinute": 10})
	if k.Status != 200 {
		t.Fatalf("key: %d %s", k.Status, k.Message)
	}
	key := k.m(t)["key"].(string)

	allowed, last := 0, 11
	for i := range 30 {
		e := a
		if i%2 == 1 {
			e = b
		}
		r := e.call(key, "GET", "/v1/account/balance", nil)
		switch r.Status {
		case 200:
			allowed++
			left, _ := strconv.Atoi(r.Header.Get("RateLimit-Remaining"))
			if left >= last {
				t.Fatalf("request %d: RateLimit-Remaining %d after %d: the replicas count apart", i, left, last)
			}
			last = left
		case 429:
			if r.Header.Get("Retry-After") == "" {
				t.Fatalf("429 without Retry-After")
			}
		default:
			t.Fatalf("request %d: %d %s", i, r.Status, r.Message)
		}
	}
	if allowed != 10 {
		t.Fatalf("%d requests allowed across two processes, want the key's 10", allowed)
	}

	// The key's WebSocket cap (1) across both processes.
	a.connect(m.Key)
	second, res, err := b.dialWS("?token="+m.Key, nil)
	if err != nil {
		t.Fatalf("second connection: %v (%v)", err, res)
	}
	if f := second.read(); f["code"] != "TOO_MANY_CONNECTIONS" {
		t.Fatalf("a second connection of a key capped at 1, on the other process: %v", f)
	}

	// An e-mail's failed logins, alternating processes.
	_, _, email := a.portalSub(holderPassword)
	for i := range 10 {
		e := a
		if i%2 == 1 {
			e = b
		}
		if res, _ := e.holder().login(email, "Wr0ng!pass", ""); res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i+1, res.StatusCode)
		}
	}
	if res, _ := b.holder().login(email, holderPassword, ""); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the 11th login, on the other process: %d", res.StatusCode)
	}
}
