package webhook

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
)

func TestSenderRefusesPrivateAddressesAtDial(t *testing.T) {
	hit := false
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hit = true }))
	defer srv.Close()
	// "localhost" passes no literal check: the dialer sees 127.0.0.1.
	url := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	res := NewSender(time.Second, false).Send(context.Background(), Message{URL: url, Secret: NewSecret(), DeliveryID: "dlv_1", Body: []byte("{}")})
	if res.Delivered() || !strings.Contains(res.Err, "not public") || hit {
		t.Fatalf("private destination: %+v (hit %v)", res, hit)
	}
	res = NewSender(time.Second, true).Send(context.Background(), Message{URL: url, Secret: NewSecret(), DeliveryID: "dlv_1", Body: []byte("{}")})
	if !res.Delivered() || !hit {
		t.Fatalf("allowed private destination: %+v", res)
	}
}

func TestSenderDoesNotFollowRedirectsAndBoundsBodies(t *testing.T) {
	followed := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/redirect":
			http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
		case "/elsewhere":
			followed = true
		case "/big":
			w.Write([]byte(strings.Repeat("a", 1<<20)))
		case "/slow":
			time.Sleep(2 * time.Second)
		}
	}))
	defer srv.Close()
	s := NewSender(500*time.Millisecond, true)
	send := func(path string) Result {
		return s.Send(context.Background(), Message{URL: srv.URL + path, Secret: NewSecret(), DeliveryID: "dlv_1", Body: []byte("{}")})
	}
	if r := send("/redirect"); r.Delivered() || r.StatusCode != 307 || followed || !strings.Contains(r.Err, "redirect") {
		t.Fatalf("redirect: %+v followed=%v", r, followed)
	}
	if r := send("/big"); !r.Delivered() || len(r.Body) != MaxResponseBody {
		t.Fatalf("big body: %d bytes kept", len(r.Body))
	}
	if r := send("/slow"); r.Delivered() || !strings.Contains(r.Err, "timeout") || r.Latency > time.Second {
		t.Fatalf("slow: %+v", r)
	}
}

func TestSenderSignsTheExactBytes(t *testing.T) {
	secret := NewSecret()
	var got http.Header
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		body, _ = io.ReadAll(r.Body)
	}))
	defer srv.Close()
	ev := domain.Event{ID: "evt_1", Type: "payment.paid", Data: []byte(`{"id": "c1", "description": "<b>&"}`)}
	msg := Encode("dlv_9", ev)
	NewSender(time.Second, true).Send(context.Background(), Message{URL: srv.URL, Secret: secret, DeliveryID: "dlv_9", EventType: ev.Type, Body: msg})
	if string(body) != string(msg) || got.Get("x-jangada-signature") != Signature(secret, msg) || got.Get("webhook-id") != "dlv_9" ||
		got.Get("x-jangada-event") != "payment.paid" || got.Get("x-jangada-delivery") != "dlv_9" {
		t.Fatalf("headers %v body %s", got, body)
	}
	if !strings.Contains(string(msg), `"description":"<b>&"`) || !strings.HasPrefix(string(msg), `{"id":"dlv_9","event":"payment.paid",`) {
		t.Fatalf("envelope %s", msg)
	}
}

func TestPublicAddr(t *testing.T) {
	for _, s := range []string{"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "::1", "fe80::1",
		"fc00::1", "0.0.0.0", "100.64.0.1", "::ffff:127.0.0.1", "224.0.0.1", "64:ff9b::a00:1"} {
		if PublicAddr(netip.MustParseAddr(s)) {
			t.Errorf("%s counted as public", s)
		}
	}
	for _, s := range []string{"8.8.8.8", "200.160.2.3", "2001:4860:4860::8888"} {
		if !PublicAddr(netip.MustParseAddr(s)) {
			t.Errorf("%s counted as private", s)
		}
	}
}

func TestDeliveryIDIsDeterministic(t *testing.T) {
	a, b := DeliveryID("evt_1", "whe_1"), DeliveryID("evt_1", "whe_1")
	if a != b || a == DeliveryID("evt_1", "whe_2") || a == DeliveryID("evt_2", "whe_1") || !strings.HasPrefix(a, "dlv_") {
		t.Fatalf("%s %s", a, b)
	}
}
