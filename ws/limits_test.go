package ws

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/poll"
	"github.com/jangada/jangada/ratelimit"
)

// limitsHub serves a hub whose only valid secret is "good", with small caps.
func limitsHub(t *testing.T, lookups *atomic.Int32) (*Hub, string) {
	t.Helper()
	key := domain.APIKey{ID: "key_1", AccountID: "acct_1", Permissions: []string{"*"}}
	h := New(Options{
		Authenticate: func(_ context.Context, secret, _ string) (domain.APIKey, error) {
			lookups.Add(1)
			if secret != "good" {
				return domain.APIKey{}, domain.ErrUnauthorized
			}
			return key, nil
		},
		Owns:     func(context.Context, string, string) bool { return true },
		MaxPerIP: 3, MaxPerKey: 1, AuthFailuresPerMinute: 2,
	})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return h, "ws" + strings.TrimPrefix(srv.URL, "http") + "/v1"
}

// open is how many connections the hub holds from the test's address.
func (h *Hub) open() int { return h.opts.Slots.(*ratelimit.LocalSlots).Held("ws-ip:127.0.0.1") }

// dial opens a connection and returns it with the handshake's status.
func dial(t *testing.T, url string) (*websocket.Conn, int) {
	t.Helper()
	c, res, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		if res == nil {
			t.Fatalf("dial: %v", err)
		}
		return nil, res.StatusCode
	}
	t.Cleanup(func() { c.Close() })
	return c, res.StatusCode
}

// next reads the next JSON frame.
func next(t *testing.T, c *websocket.Conn) map[string]any {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	var m map[string]any
	if err := c.ReadJSON(&m); err != nil {
		t.Fatalf("read: %v", err)
	}
	return m
}

func TestWSCapsConnectionsPerKeyAndPerAddress(t *testing.T) {
	t.Parallel()
	var lookups atomic.Int32
	h, url := limitsHub(t, &lookups)
	first, _ := dial(t, url+"?token=good")
	if m := next(t, first); m["event"] != "authenticated" {
		t.Fatalf("first connection: %v", m)
	}
	// The key's second connection is refused after the upgrade.
	second, _ := dial(t, url+"?token=good")
	if m := next(t, second); m["code"] != "TOO_MANY_CONNECTIONS" {
		t.Fatalf("second connection of the key: %v", m)
	}
	// Positive signal that the refused connection is gone: the server
	// closes it, and the address has a slot again for a third one.
	second.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := second.ReadMessage(); !websocket.IsCloseError(err, websocket.ClosePolicyViolation) {
		t.Fatalf("refused connection not closed with 1008: %v", err)
	}
	poll.Until(t, 5*time.Second, "the refused connection's slot to be free", func() bool { return h.open() == 1 })
	// Three open connections from this address: the fourth is refused
	// before the upgrade.
	dial(t, url)
	dial(t, url)
	if _, status := dial(t, url); status != http.StatusTooManyRequests {
		t.Fatalf("a fourth connection from the address: %d", status)
	}
}

func TestWSThrottlesFailedAuthentications(t *testing.T) {
	t.Parallel()
	var lookups atomic.Int32
	_, url := limitsHub(t, &lookups)
	for range 2 {
		if _, status := dial(t, url+"?token=guess"); status != http.StatusUnauthorized {
			t.Fatalf("a wrong key: %d", status)
		}
	}
	// The budget is spent: even a right key is refused, without a lookup.
	if _, status := dial(t, url+"?token=good"); status != http.StatusTooManyRequests {
		t.Fatalf("after two failures: %d", status)
	}
	if n := lookups.Load(); n != 2 {
		t.Fatalf("%d key lookups, want 2: the throttled attempt must not reach the store", n)
	}
}
