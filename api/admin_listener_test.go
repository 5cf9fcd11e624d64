package api

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/domain"
)

// Metrics, profiles and the admin API are on the operators' listener
// only, never on the merchant port (CONTRACTS.md).
func TestAdminListener(t *testing.T) {
	t.Parallel()
	t.Run("metrics: admin listener only", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		if w := f.serveAdmin("GET", "/metrics"); w.Code != http.StatusOK {
			t.Fatalf("/metrics on the admin listener: %d", w.Code)
		}
		if w := f.serve("GET", "/metrics", ""); w.Code != http.StatusNotFound {
			t.Fatalf("/metrics on the merchant listener: %d, want 404", w.Code)
		}
		if w := f.serveAdmin("GET", "/livez"); w.Code != http.StatusOK {
			t.Fatalf("/livez on the admin listener: %d", w.Code)
		}
	})
	t.Run("admin API on the operators' listener only", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		for _, path := range []string{"/admin/v1/accounts/acc_1", "/admin/v1/openapi.json", "/admin/v1/debug/pprof/"} {
			r := httptest.NewRequest("GET", path, nil)
			r.Header.Set("X-Admin-Token", testAdminToken)
			w := httptest.NewRecorder()
			f.srv.Handler().ServeHTTP(w, r)
			if w.Code != http.StatusNotFound {
				t.Errorf("%s with the token on the merchant listener: %d, want 404", path, w.Code)
			}
		}
		if w := f.serveAdmin("GET", "/admin/v1/accounts/acc_1"); w.Code != http.StatusUnauthorized {
			t.Fatalf("/admin/v1 without a token on the admin listener: %d, want 401", w.Code)
		}
	})
}

// Behind a trusted balancer (testPeer's network) each
// client has its own bad-key budget and the key allowlist sees the client;
// from an untrusted peer X-Forwarded-For changes nothing.
func TestHandlerClientAddressBehindProxies(t *testing.T) {
	t.Parallel()
	badKeys := func(f *fixture, xff string, n int) []int {
		var codes []int
		for i := range n {
			codes = append(codes, f.serve("GET", getSchedulePath, "", "X-API-Key", fmt.Sprintf("sk_guess_%d", i), "X-Forwarded-For", xff).Code)
		}
		return codes
	}
	t.Run("trusted peer: one client's bad keys do not lock out another", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t, withConfig(func(c *config.Config) {
			c.RateLimitPerMinute = 2
			c.TrustedProxies = []string{"192.0.2.0/24"}
		}))
		f.auth.EXPECT().Resolve(gomock.Any(), gomock.Any()).Return(domain.APIKey{}, domain.Account{}, domain.ErrUnauthorized).AnyTimes()
		if got := badKeys(f, "203.0.113.5", 3); got[2] != http.StatusTooManyRequests {
			t.Fatalf("client A's guesses: %v, want the third throttled", got)
		}
		if got := badKeys(f, "203.0.113.6", 1); got[0] != http.StatusUnauthorized {
			t.Fatalf("client B behind the same balancer: %v, want 401 (its own budget)", got)
		}
	})
	t.Run("untrusted peer: a forged header buys no fresh budget", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t, withConfig(func(c *config.Config) {
			c.RateLimitPerMinute = 2
			c.TrustedProxies = []string{"10.0.0.0/8"}
		}))
		f.auth.EXPECT().Resolve(gomock.Any(), gomock.Any()).Return(domain.APIKey{}, domain.Account{}, domain.ErrUnauthorized).AnyTimes()
		badKeys(f, "203.0.113.5", 2)
		if got := badKeys(f, "203.0.113.6", 1); got[0] != http.StatusTooManyRequests {
			t.Fatalf("another forged address from the same peer: %v, want 429", got)
		}
	})
	allowlisted := func(t *testing.T, trusted []string, xff string) int {
		f := newFixture(t, withConfig(func(c *config.Config) { c.TrustedProxies = trusted }))
		k := testKey("*")
		k.IPAllowlist = []string{"203.0.113.0/24"}
		f.withKey(k)
		if len(trusted) > 0 && trusted[0] == "192.0.2.0/24" {
			expectScheduleGet(f)
		}
		return f.serve("GET", getSchedulePath, "", "X-API-Key", testSecret, "X-Forwarded-For", xff, clientAddrHeader, "203.0.113.1").Code
	}
	t.Run("trusted peer: the allowlist admits the forwarded client", func(t *testing.T) {
		t.Parallel()
		if code := allowlisted(t, []string{"192.0.2.0/24"}, "203.0.113.9"); code != http.StatusOK {
			t.Fatalf("allowlisted client behind a trusted balancer: %d, want 200", code)
		}
	})
	t.Run("untrusted peer: the allowlist is not fooled by headers", func(t *testing.T) {
		t.Parallel()
		// Neither X-Forwarded-For nor the internal header, sent by a client.
		if code := allowlisted(t, nil, "203.0.113.9"); code != http.StatusForbidden {
			t.Fatalf("forged headers from an untrusted peer: %d, want 403", code)
		}
	})
	t.Run("admin budget per forwarded client", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t, withConfig(func(c *config.Config) {
			c.AdminRateLimitPerMinute = 2
			c.TrustedProxies = []string{"192.0.2.0/24"}
		}))
		for range 2 {
			f.serveAdmin("GET", "/admin/v1/accounts/acc_1", "X-Admin-Token", "guess", "X-Forwarded-For", "203.0.113.5")
		}
		if w := f.serveAdmin("GET", "/admin/v1/accounts/acc_1", "X-Admin-Token", "guess", "X-Forwarded-For", "203.0.113.5"); w.Code != http.StatusTooManyRequests {
			t.Fatalf("operator A's third guess: %d, want 429", w.Code)
		}
		if w := f.serveAdmin("GET", "/admin/v1/accounts/acc_1", "X-Admin-Token", "guess", "X-Forwarded-For", "203.0.113.6"); w.Code != http.StatusUnauthorized {
			t.Fatalf("operator B: %d, want 401", w.Code)
		}
	})
}
