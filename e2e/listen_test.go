package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/internal/listen"
	"github.com/jangada/jangada/webhook"
	"github.com/jangada/jangada/webhook/verify"
)

// syncBuffer is the listener's output, read while it writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// dropProxy is a TCP proxy in front of the gateway whose connections a test
// can cut, as a network drop or a gateway restart would.
type dropProxy struct {
	l     net.Listener
	to    string
	mu    sync.Mutex
	conns []net.Conn
}

func newDropProxy(t *testing.T, to string) *dropProxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &dropProxy{l: l, to: to}
	t.Cleanup(func() { l.Close(); p.drop() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", to)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, u)
			p.mu.Unlock()
			go func() { io.Copy(u, c); u.Close() }()
			go func() { io.Copy(c, u); c.Close() }()
		}
	}()
	return p
}

// drop cuts every open connection.
func (p *dropProxy) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// forwarded is one event as the local receiver accepted it.
type forwarded struct {
	event, id, resource string
}

// TestListenForwardsSignedEventsAndReconnects runs `jangada listen`'s
// listener against the real gateway: a sandbox payment's events arrive at a
// local receiver signed as webhook deliveries (both signatures, checked
// with webhook/verify and independently), each is acknowledged to the
// gateway, and after the gateway connection drops the listener reconnects,
// re-subscribes and forwards the next payment's events.
func TestListenForwardsSignedEventsAndReconnects(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()

	var mu sync.Mutex
	var got []forwarded
	var secret string
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if err := verify.Verify(secret, r.Header, body, 0); err != nil {
			t.Errorf("webhook/verify: %v", err)
			http.Error(w, err.Error(), 400)
			return
		}
		if err := checkSignatures(secret, r.Header, body); err != nil {
			t.Errorf("signatures: %v", err)
		}
		var env struct {
			ID, Event, CreatedAt string
			Data                 struct{ ID string }
		}
		if err := json.Unmarshal(body, &env); err != nil || env.ID == "" || env.CreatedAt == "" {
			t.Errorf("body %s: %v", body, err)
		}
		if r.Header.Get("x-jangada-event") != env.Event || r.Header.Get("x-jangada-delivery") != env.ID {
			t.Errorf("headers %v for %s", r.Header, body)
		}
		got = append(got, forwarded{env.Event, env.ID, env.Data.ID})
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(recv.Close)
	has := func(event, resource string) (forwarded, bool) {
		mu.Lock()
		defer mu.Unlock()
		for _, f := range got {
			if f.event == event && f.resource == resource {
				return f, true
			}
		}
		return forwarded{}, false
	}

	proxy := newDropProxy(t, e.app.WSAddr)
	out := &syncBuffer{}
	l, err := listen.New(listen.Options{WSURL: "ws://" + proxy.l.Addr().String() + "/v1", APIKey: m.Key,
		ForwardTo: recv.URL + "/hooks", Patterns: []string{"payment.*", "transfer.*"}, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	secret = l.Secret()
	mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		t.Logf("jangada listen output:\n%s", out)
	})
	eventually(t, "the listener to subscribe", func() bool {
		return strings.Contains(out.String(), "Connected; subscribed to payment.*, transfer.*")
	})
	if !strings.Contains(out.String(), "Webhook signing secret: "+secret) {
		t.Errorf("the secret is not printed:\n%s", out)
	}

	c := e.createCharge(m, map[string]any{"amount": 12.5, "description": "Pedido listen", "externalReference": "listen-1"})
	id := c["id"].(string)
	if r := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", nil); r.Status != 200 {
		t.Fatalf("pay: %d %s", r.Status, r.Message)
	}
	eventually(t, "payment.created and payment.paid forwarded", func() bool {
		_, a := has("payment.created", id)
		_, b := has("payment.paid", id)
		return a && b
	})
	paid, _ := has("payment.paid", id)
	eventually(t, "the printed line of payment.paid", func() bool {
		return strings.Contains(out.String(), "payment.paid") && strings.Contains(out.String(), paid.id+"  "+id+"  [204 No Content]")
	})
	// The forwarded id is the gateway's delivery id of the event to the
	// key, not the event's id.
	var paidEvent string
	evs, _ := db.EventsFor(context.Background(), e.app.DB, id)
	for _, ev := range evs {
		if ev.Type == "payment.paid" {
			paidEvent = ev.ID
		}
	}
	if want := webhook.SocketDeliveryID(paidEvent, m.KeyID); paid.id != want {
		t.Fatalf("forwarded id %s, want the delivery id %s of event %s", paid.id, want, paidEvent)
	}
	// Each forwarded event is acknowledged to the gateway, which records it.
	eventually(t, "the gateway to record the ack of payment.paid", func() bool {
		var n int
		e.app.DB.Get(&n, `SELECT count(*) FROM ws_acks WHERE event_id = $1 AND api_key_id = $2`, paidEvent, m.KeyID)
		return n == 1
	})

	proxy.drop()
	eventuallyWithin(t, 30*time.Second, "the listener to reconnect and re-subscribe", func() bool {
		s := out.String()
		return strings.Contains(s, "connection lost") && strings.Contains(s, "reconnecting in 1s (attempt 1)") &&
			strings.Contains(s, "Reconnected; subscribed to payment.*, transfer.*")
	})
	c2 := e.createCharge(m, map[string]any{"amount": 7, "description": "Pedido listen 2", "externalReference": "listen-2"})
	id2 := c2["id"].(string)
	eventually(t, "the second charge's payment.created forwarded after the reconnect", func() bool {
		_, ok := has("payment.created", id2)
		return ok
	})
}

// A wrong key is refused before anything is ready: jangada listen stops
// with the gateway's refusal and never prints "Ready" nor a secret to use.
func TestListenRefusesAWrongKeyBeforeReady(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	out := &syncBuffer{}
	l, err := listen.New(listen.Options{WSURL: e.ws, APIKey: "jgd_test_wrong", ForwardTo: "http://127.0.0.1:1/hooks", Out: out})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := l.Run(ctx); !errors.Is(err, listen.ErrRefused) {
		t.Fatalf("Run with a wrong key = %v, want ErrRefused\n%s", err, out)
	}
	if strings.Contains(out.String(), "Ready") || strings.Contains(out.String(), "whsec_") {
		t.Fatalf("a refused key was followed by Ready or a secret:\n%s", out)
	}
}
