package listen

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/jangada/jangada/webhook"
)

func TestDelayFollowsTheSpecSchedule(t *testing.T) {
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30}
	for i, w := range want {
		if got := Delay(Backoff, i+1); got != w*time.Second {
			t.Errorf("attempt %d: %v, want %v", i+1, got, w*time.Second)
		}
	}
	if got := Delay(Backoff, 0); got != time.Second {
		t.Errorf("attempt 0: %v", got)
	}
	if got := Delay(nil, 3); got != 0 {
		t.Errorf("empty schedule: %v", got)
	}
}

func TestLineNamesTimeEventIDsAndAnswer(t *testing.T) {
	at := time.Date(2026, 11, 25, 10, 5, 3, 0, time.FixedZone("BRT", -3*3600))
	cases := []struct {
		res  webhook.Result
		res2 string
		want string
	}{
		{webhook.Result{StatusCode: 200, Latency: 12 * time.Millisecond}, "pix_1",
			"2026-11-25 13:05:03  --> payment.paid                 evt_1  pix_1  [200 OK] 12ms"},
		{webhook.Result{StatusCode: 500, Err: "HTTP 500", Latency: 3 * time.Millisecond}, "",
			"2026-11-25 13:05:03  --> payment.paid                 evt_1  -  [500 Internal Server Error] 3ms"},
		{webhook.Result{Err: "dial tcp 127.0.0.1:3000: connect: connection refused"}, "pix_1",
			"2026-11-25 13:05:03  --> payment.paid                 evt_1  pix_1  [ERR dial tcp 127.0.0.1:3000: connect: connection refused] 0ms"},
	}
	for _, c := range cases {
		if got := Line(at, "payment.paid", "evt_1", c.res2, c.res); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

func TestNewChecksItsOptions(t *testing.T) {
	good := Options{WSURL: "ws://x/v1", APIKey: "k", ForwardTo: "http://localhost:3000/hooks"}
	l, err := New(good)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(l.Secret(), webhook.SecretPrefix) || len(l.o.Patterns) != 1 || l.o.Patterns[0] != "*" {
		t.Errorf("defaults: secret %q patterns %v", l.Secret(), l.o.Patterns)
	}
	for name, o := range map[string]Options{
		"no key":      {WSURL: "ws://x/v1", ForwardTo: "http://a"},
		"ftp forward": {WSURL: "ws://x/v1", APIKey: "k", ForwardTo: "ftp://a"},
		"bad pattern": {WSURL: "ws://x/v1", APIKey: "k", ForwardTo: "http://a", Patterns: []string{"Payment.*"}},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestRefusedKeyEndsTheListener: a key the gateway refuses is not retried.
func TestRefusedKeyEndsTheListener(t *testing.T) {
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		c.ReadMessage()
		c.WriteJSON(map[string]any{"event": "error", "code": "UNAUTHORIZED", "message": "invalid API key"})
	}))
	defer srv.Close()
	l, err := New(Options{WSURL: "ws" + strings.TrimPrefix(srv.URL, "http"), APIKey: "bad", ForwardTo: "http://127.0.0.1:1/"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := l.Run(ctx); !errors.Is(err, ErrRefused) {
		t.Fatalf("Run: %v, want ErrRefused", err)
	}
}
