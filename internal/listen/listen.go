// Package listen is `jangada listen`: a WebSocket client of the event
// gateway that forwards each event to a local URL exactly as a webhook
// delivery would arrive there (the same body, the x-jangada-* headers and
// the Standard Webhooks headers, both signatures made by webhook.Sender with
// a whsec_ secret of its own), so that a merchant's receiver can be built
// and tested on a laptop with no public address.
package listen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/webhook"
)

// Options configures one listener.
type Options struct {
	// WSURL is the gateway, e.g. ws://localhost:8081/v1.
	WSURL string
	// APIKey authenticates the connection (first message, never the URL).
	APIKey string
	// ForwardTo is the local receiver's URL.
	ForwardTo string
	// Patterns are the event patterns subscribed to (each one); none: "*".
	Patterns []string
	// Secret signs the forwarded deliveries (whsec_…); empty: a new one.
	Secret string
	// Out receives the lines the listener prints.
	Out io.Writer
	// Backoff is the reconnect schedule; nil: the specification's
	// (Backoff). Tests shorten it.
	Backoff []time.Duration
	// Timeout bounds one forward; zero: webhook.DefaultTimeout.
	Timeout time.Duration
	// Now is the clock of the printed lines; nil: time.Now.
	Now func() time.Time
}

// Backoff is the specification's reconnect schedule: 1, 2, 4, 8, 16, then
// 30 s between every later attempt.
var Backoff = []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 30 * time.Second}

// Delay is the wait before reconnect attempt n (1-based) under schedule:
// its n-th step, the last step once the schedule is exhausted.
func Delay(schedule []time.Duration, n int) time.Duration {
	if len(schedule) == 0 {
		return 0
	}
	if n < 1 {
		n = 1
	}
	if n > len(schedule) {
		return schedule[len(schedule)-1]
	}
	return schedule[n-1]
}

// ErrRefused is returned when the gateway refuses the key or a pattern:
// reconnecting would be refused again.
var ErrRefused = errors.New("listen: refused by the gateway")

// Listener is one running `jangada listen`.
type Listener struct {
	o      Options
	sender *webhook.Sender
	out    sync.Mutex
	// ready prints "Ready" and the secret once, at the first subscription.
	ready sync.Once
}

// New checks o and fills its defaults.
func New(o Options) (*Listener, error) {
	if o.WSURL == "" || o.APIKey == "" || o.ForwardTo == "" {
		return nil, errors.New("listen: the gateway URL, the API key and the forward URL are required")
	}
	if !strings.HasPrefix(o.ForwardTo, "http://") && !strings.HasPrefix(o.ForwardTo, "https://") {
		return nil, fmt.Errorf("listen: --forward-to must be an http:// or https:// URL, not %q", o.ForwardTo)
	}
	if len(o.Patterns) == 0 {
		o.Patterns = []string{"*"}
	}
	for _, p := range o.Patterns {
		if !domain.ValidPattern(p) {
			return nil, fmt.Errorf("listen: %q is not an event pattern (a-z, 0-9, _, . and *, up to 64 characters)", p)
		}
	}
	if o.Secret == "" {
		o.Secret = webhook.NewSecret()
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Backoff == nil {
		o.Backoff = Backoff
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	// Forwarding to the developer's own machine is the point: loopback and
	// private addresses are allowed.
	return &Listener{o: o, sender: webhook.NewSender(o.Timeout, true)}, nil
}

// Secret is the whsec_ secret the forwarded deliveries are signed with.
func (l *Listener) Secret() string { return l.o.Secret }

// Run connects, subscribes and forwards until ctx ends (nil) or the
// gateway refuses the key or a pattern (ErrRefused). A lost connection is
// reconnected with the backoff, re-authenticated and re-subscribed.
func (l *Listener) Run(ctx context.Context) error {
	attempt := 0
	for {
		ready, err := l.session(ctx, attempt > 0)
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, ErrRefused) {
			return err
		}
		if ready {
			attempt = 0 // the schedule starts over after a connection that worked
		}
		attempt++
		wait := Delay(l.o.Backoff, attempt)
		what := "cannot connect"
		if ready {
			what = "connection lost"
		}
		l.printf("%s  %s (%v); reconnecting in %s (attempt %d)\n", l.stamp(), what, err, wait, attempt)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

// frame is any server frame: control frames and event envelopes alike.
type frame struct {
	Event     string          `json:"event"`
	ID        string          `json:"id"`
	Code      string          `json:"code"`
	Message   string          `json:"message"`
	Pattern   string          `json:"pattern"`
	Data      json.RawMessage `json:"data"`
	CreatedAt string          `json:"createdAt"`
}

// session is one connection: dial, authenticate, subscribe, then forward
// until it breaks. ready reports whether it got as far as forwarding.
func (l *Listener) session(ctx context.Context, again bool) (ready bool, err error) {
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	c, _, err := websocket.DefaultDialer.DialContext(dctx, l.o.WSURL, nil)
	cancel()
	if err != nil {
		return false, err
	}
	defer c.Close()
	// Closing the connection is how a cancelled ctx ends a blocked read.
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	var wmu sync.Mutex
	write := func(v any) error {
		wmu.Lock()
		defer wmu.Unlock()
		c.SetWriteDeadline(time.Now().Add(10 * time.Second))
		return c.WriteJSON(v)
	}
	if err := write(map[string]any{"action": "authenticate", "apiKey": l.o.APIKey}); err != nil {
		return false, err
	}
	if err := l.handshake(c, write); err != nil {
		return false, err
	}
	// Ready (and the secret) only once the gateway took the key and the
	// patterns: a wrong key is told, never followed by a secret to use.
	l.ready.Do(func() {
		l.printf("Ready. Forwarding %s events from %s to %s\n", strings.Join(l.o.Patterns, ", "), l.o.WSURL, l.o.ForwardTo)
		l.printf("Webhook signing secret: %s (verify with github.com/jangada/jangada/webhook/verify)\n", l.o.Secret)
	})
	verb := "Connected"
	if again {
		verb = "Reconnected"
	}
	l.printf("%s  %s; subscribed to %s\n", l.stamp(), verb, strings.Join(l.o.Patterns, ", "))

	// Events are forwarded one at a time, in the order they arrived, by
	// their own goroutine, so that a slow receiver never keeps the reader
	// from answering the gateway's heartbeat.
	events := make(chan []byte, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for raw := range events {
			l.forward(ctx, raw, write)
		}
	}()
	defer func() { close(events); <-done }()
	c.SetReadDeadline(time.Time{})
	for {
		_, raw, err := c.ReadMessage()
		if err != nil {
			return true, err
		}
		var f frame
		if json.Unmarshal(raw, &f) != nil {
			continue
		}
		switch {
		case f.Event == "ping":
			if err := write(map[string]any{"action": "ping"}); err != nil {
				return true, err
			}
		case f.Event == "error":
			l.printf("%s  gateway error %s: %s\n", l.stamp(), f.Code, f.Message)
		case f.ID != "" && f.Data != nil:
			select {
			case events <- raw:
			default:
				l.printf("%s  %s %s dropped: the receiver is too slow (256 events queued)\n", l.stamp(), f.Event, f.ID)
			}
		}
	}
}

// handshake waits for `authenticated`, then subscribes to each pattern and
// waits for each `subscribed`.
func (l *Listener) handshake(c *websocket.Conn, write func(any) error) error {
	c.SetReadDeadline(time.Now().Add(15 * time.Second))
	want := map[string]bool{}
	for {
		_, raw, err := c.ReadMessage()
		if err != nil {
			return err
		}
		var f frame
		if json.Unmarshal(raw, &f) != nil {
			continue
		}
		switch f.Event {
		case "ping":
			if err := write(map[string]any{"action": "ping"}); err != nil {
				return err
			}
		case "authenticated":
			for _, p := range l.o.Patterns {
				want[p] = true
				if err := write(map[string]any{"action": "subscribe", "pattern": p}); err != nil {
					return err
				}
			}
		case "subscribed":
			delete(want, f.Pattern)
			if len(want) == 0 {
				return nil
			}
		case "error":
			switch f.Code {
			case "UNAUTHORIZED", "INVALID_PATTERN", "SUBSCRIPTION_LIMIT":
				return fmt.Errorf("%w: %s %s", ErrRefused, f.Code, f.Message)
			}
			return fmt.Errorf("gateway error %s: %s", f.Code, f.Message)
		}
	}
}

// forward posts one event's frame to the receiver, signed as a webhook
// delivery, prints its line and acknowledges it to the gateway.
func (l *Listener) forward(ctx context.Context, raw []byte, write func(any) error) {
	var f frame
	json.Unmarshal(raw, &f)
	// The frame's id is the gateway's delivery id of the event to this key:
	// stable across reconnects, so the receiver dedupes on it as it would
	// on a webhook's.
	res := l.sender.Send(ctx, webhook.Message{URL: l.o.ForwardTo, Secret: l.o.Secret, DeliveryID: f.ID, EventType: f.Event, Body: raw})
	l.printf("%s\n", Line(l.o.Now(), f.Event, f.ID, resourceID(f.Data), res))
	// The ack tells the gateway the event reached this client (tracking
	// only: the gateway never redelivers). A failed forward is still acked:
	// the line above says what the receiver answered.
	write(map[string]any{"action": "ack", "id": f.ID})
}

// resourceID is data.id, the resource the event is about, when it has one.
func resourceID(data json.RawMessage) string {
	var d struct {
		ID string `json:"id"`
	}
	json.Unmarshal(data, &d)
	return d.ID
}

// Line is the printed line of one forwarded event: time, event type,
// delivery id (the frame's id, forwarded as x-jangada-delivery and
// webhook-id), resource id and what the receiver answered.
func Line(at time.Time, event, id, resource string, r webhook.Result) string {
	status := fmt.Sprintf("[%d %s]", r.StatusCode, http.StatusText(r.StatusCode))
	if r.StatusCode == 0 {
		status = "[ERR " + r.Err + "]"
	}
	if resource == "" {
		resource = "-"
	}
	return fmt.Sprintf("%s  --> %-28s %s  %s  %s %dms", at.UTC().Format("2006-01-02 15:04:05"), event, id, resource, status,
		r.Latency.Milliseconds())
}

func (l *Listener) stamp() string { return l.o.Now().UTC().Format("2006-01-02 15:04:05") }

func (l *Listener) printf(format string, args ...any) {
	l.out.Lock()
	defer l.out.Unlock()
	fmt.Fprintf(l.o.Out, format, args...)
}
