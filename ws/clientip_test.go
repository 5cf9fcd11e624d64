package ws

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/clientip"
)

// proxiedHub serves a hub that trusts the proxies in trusted (the test
// client's peer is 127.0.0.1), with small caps; it records the address
// each lookup was made for.
func proxiedHub(t *testing.T, trusted []string, down *atomic.Bool) (h *Hub, url string, seen func() []string) {
	t.Helper()
	tr, err := clientip.Parse(trusted)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var ips []string
	h = New(Options{
		Authenticate: func(_ context.Context, secret, ip string) (domain.APIKey, error) {
			mu.Lock()
			ips = append(ips, ip)
			mu.Unlock()
			if down != nil && down.Load() {
				return domain.APIKey{}, fmt.Errorf("%w: db: key lookup: connection refused", domain.ErrUnavailable)
			}
			if secret != "good" {
				return domain.APIKey{}, domain.ErrUnauthorized
			}
			return domain.APIKey{ID: "key_1", AccountID: "acct_1", Permissions: []string{"*"}}, nil
		},
		Owns:     func(context.Context, string, string) bool { return true },
		MaxPerIP: 2, MaxPerKey: 10, AuthFailuresPerMinute: 2,
		ClientIP: tr.ClientIP,
	})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return h, "ws" + strings.TrimPrefix(srv.URL, "http") + "/v1", func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), ips...)
	}
}

// dialFrom opens a connection claiming, in X-Forwarded-For, to come from xff.
func dialFrom(t *testing.T, url, xff string) (*websocket.Conn, int) {
	t.Helper()
	hdr := http.Header{}
	if xff != "" {
		hdr.Set("X-Forwarded-For", xff)
	}
	c, res, err := websocket.DefaultDialer.Dial(url, hdr)
	if err != nil {
		if res == nil {
			t.Fatalf("dial: %v", err)
		}
		return nil, res.StatusCode
	}
	t.Cleanup(func() { c.Close() })
	return c, res.StatusCode
}

// Behind a trusted balancer each client has its own
// connection cap and failure budget, and the key's allowlist sees the
// client's address; from an untrusted peer the header changes nothing.
func TestWSClientAddressBehindProxies(t *testing.T) {
	t.Parallel()
	t.Run("trusted proxy: per-client caps and budgets", func(t *testing.T) {
		t.Parallel()
		_, url, seen := proxiedHub(t, []string{"127.0.0.0/8"}, nil)
		// Client A fills its cap of 2; client B, behind the same balancer,
		// still connects.
		dialFrom(t, url, "203.0.113.1")
		dialFrom(t, url, "203.0.113.1")
		if _, status := dialFrom(t, url, "203.0.113.1"); status != http.StatusTooManyRequests {
			t.Fatalf("client A's third connection: %d, want 429", status)
		}
		if _, status := dialFrom(t, url, "203.0.113.2"); status != http.StatusSwitchingProtocols {
			t.Fatalf("client B's first connection: %d, want 101", status)
		}
		// Client C spends its failure budget; client D is not locked out.
		for range 2 {
			if _, status := dialFrom(t, url+"?token=guess", "198.51.100.3"); status != http.StatusUnauthorized {
				t.Fatalf("client C's guess: %d", status)
			}
		}
		if _, status := dialFrom(t, url+"?token=good", "198.51.100.3"); status != http.StatusTooManyRequests {
			t.Fatalf("client C after its budget: %d, want 429", status)
		}
		if _, status := dialFrom(t, url+"?token=good", "198.51.100.4"); status != http.StatusSwitchingProtocols {
			t.Fatalf("client D: %d, want 101", status)
		}
		if got := seen(); got[len(got)-1] != "198.51.100.4" {
			t.Fatalf("the key lookup (allowlist) saw %v, want the client's address last", got)
		}
	})
	t.Run("untrusted peer: X-Forwarded-For ignored", func(t *testing.T) {
		t.Parallel()
		_, url, _ := proxiedHub(t, []string{"10.0.0.0/8"}, nil)
		dialFrom(t, url, "203.0.113.1")
		dialFrom(t, url, "203.0.113.2")
		// A forged header does not buy a fresh cap: every connection is
		// the peer's.
		if _, status := dialFrom(t, url, "203.0.113.3"); status != http.StatusTooManyRequests {
			t.Fatalf("third connection with a forged header: %d, want 429", status)
		}
		// Nor does it aim the allowlist: the lookup sees the peer.
		_, url2, seen2 := proxiedHub(t, []string{"10.0.0.0/8"}, nil)
		dialFrom(t, url2+"?token=good", "203.0.113.9")
		if got := seen2(); len(got) != 1 || got[0] != "127.0.0.1" {
			t.Fatalf("lookup addresses %v, want [127.0.0.1]", got)
		}
	})
}

// A database outage at the gateway: a key that could not be checked because
// the database is away answers 503 and spends no failure budget.
func TestWSOutageSpendsNoAuthBudget(t *testing.T) {
	t.Parallel()
	var down atomic.Bool
	down.Store(true)
	h, url, _ := proxiedHub(t, nil, &down)
	for range 5 { // more than the budget of 2
		if _, status := dialFrom(t, url+"?token=good", ""); status != http.StatusServiceUnavailable {
			t.Fatalf("during the outage: %d, want 503", status)
		}
	}
	// In-band authentication during the outage: refused, closed with 1013.
	c, _ := dialFrom(t, url, "")
	c.WriteJSON(map[string]any{"action": "authenticate", "apiKey": "good"})
	if m := next(t, c); m["code"] != "UNAVAILABLE" {
		t.Fatalf("in-band authenticate during the outage: %v", m)
	}
	down.Store(false)
	if h.throttled("127.0.0.1") {
		t.Fatal("the outage spent the address's failure budget")
	}
	c2, status := dialFrom(t, url+"?token=good", "")
	if status != http.StatusSwitchingProtocols {
		t.Fatalf("after the outage: %d, want 101", status)
	}
	if m := next(t, c2); m["event"] != "authenticated" {
		t.Fatalf("after the outage: %v", m)
	}
}
