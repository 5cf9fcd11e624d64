package ws

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/poll"
)

// The handler returns as soon as the upgrade is done, so that net/http's
// per-request state (a 4 KiB write buffer, the request, a deep stack) is
// freed while the connection lives on; and an upgrade refused by gorilla
// still answers and gives its address slot back.
func TestWSHandlerReturnsOnceUpgraded(t *testing.T) {
	t.Parallel()
	key := domain.APIKey{ID: "key_1", AccountID: "acct_1", Permissions: []string{"*"}}
	h := New(Options{
		Authenticate: func(context.Context, string, string) (domain.APIKey, error) { return key, nil },
		Owns:         func(context.Context, string, string) bool { return true },
	})
	returned := make(chan struct{}, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		returned <- struct{}{}
	}))
	t.Cleanup(func() { srv.Close(); h.Close() })
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/v1?token=k"

	c := authenticatedConn(t, url)
	select {
	case <-returned:
	case <-time.After(5 * time.Second):
		t.Fatal("ServeHTTP still running after the upgrade")
	}
	// The connection outlived its handler: it still answers, and still
	// holds its address slot.
	if err := c.WriteJSON(map[string]any{"action": "ping"}); err != nil {
		t.Fatal(err)
	}
	if m := next(t, c); m["event"] != "pong" {
		t.Fatalf("after the handler returned: %v", m)
	}
	if n := h.open(); n != 1 {
		t.Fatalf("%d open connections from the address, want 1", n)
	}
	c.Close()
	poll.Until(t, 5*time.Second, "the closed connection's slot to be free", func() bool { return h.open() == 0 })

	// A plain GET is no upgrade: gorilla refuses it with 400, the handler
	// returns, and the slot is given back.
	res, err := http.Get(srv.URL + "/v1?token=k")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("plain GET: %d, want 400", res.StatusCode)
	}
	poll.Until(t, 5*time.Second, "the refused upgrade's slot to be free", func() bool { return h.open() == 0 })
}
