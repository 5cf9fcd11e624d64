package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/jangada/jangada/client/oapi"
)

// fakeAPI answers each request with the next of its answers (the last one
// repeated), recording what it received.
type fakeAPI struct {
	mu       sync.Mutex
	answers  []func(w http.ResponseWriter)
	keys     []string
	idemKeys []string
	bodies   []string
	at       []time.Time
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, _ := io.ReadAll(r.Body)
	f.keys = append(f.keys, r.Header.Get("X-API-Key"))
	f.idemKeys = append(f.idemKeys, r.Header.Get("Idempotency-Key"))
	f.bodies = append(f.bodies, string(b))
	f.at = append(f.at, time.Now())
	i := min(len(f.at)-1, len(f.answers)-1)
	f.answers[i](w)
}

func answer(status int, retryAfter, body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

const created = `{"success": true, "message": "ok", "requestId": "r1", "data": {"id": "ch_1", "amount": 25.9, "status": "PENDING", "copyPaste": "000201", "qrCodeBase64": "", "qrcodeUrl": "", "createdAt": "2026-01-02T03:04:05Z", "expiresAt": "2026-01-02T04:04:05Z", "feeAmount": 0, "netAmount": 25.9}}`

func newTestClient(t *testing.T, f *fakeAPI, opts ...Option) *Client {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := New(srv.URL+"/v1", "jgd_test_key", append([]Option{WithBackoff(time.Millisecond, 4*time.Millisecond)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var charge = oapi.PaymentPixCreateJSONRequestBody{Amount: 25.9, Description: "Pedido 1"}

// TestRetriesHonourRetryAfter: a 503 then a 429, each with Retry-After: 1,
// then a success; the retries wait the second each says (the backoff
// alone would wait milliseconds) and resend the same body under the same
// Idempotency-Key, which the client made as the caller set none.
func TestRetriesHonourRetryAfter(t *testing.T) {
	f := &fakeAPI{answers: []func(http.ResponseWriter){
		answer(503, "1", `{"success": false, "message": "busy", "requestId": "r0"}`),
		answer(429, "1", `{"success": false, "message": "slow down", "requestId": "r0"}`),
		answer(200, "", created),
	}}
	res, err := newTestClient(t, f).PaymentPixCreateWithResponse(context.Background(), nil, charge)
	if err != nil {
		t.Fatal(err)
	}
	if res.JSON200 == nil || res.JSON200.Id != "ch_1" || res.JSON200.Amount != 25.9 {
		t.Fatalf("data not unwrapped: %+v %s", res.JSON200, res.Body)
	}
	if len(f.at) != 3 {
		t.Fatalf("%d attempts, want 3", len(f.at))
	}
	for i := 1; i < 3; i++ {
		if gap := f.at[i].Sub(f.at[i-1]); gap < time.Second {
			t.Errorf("retry %d after %v, before the Retry-After second", i, gap)
		}
		if f.bodies[i] != f.bodies[0] || f.idemKeys[i] != f.idemKeys[0] || f.keys[i] != "jgd_test_key" {
			t.Errorf("retry %d sent %q key %q idem %q; first %q idem %q", i, f.bodies[i], f.keys[i], f.idemKeys[i], f.bodies[0], f.idemKeys[0])
		}
	}
	if f.idemKeys[0] == "" {
		t.Error("a POST went without an Idempotency-Key")
	}
}

// TestRetriesBackOffThenGiveUp: without Retry-After the client backs off
// and, its retries spent, answers the last error as an *Error.
func TestRetriesBackOffThenGiveUp(t *testing.T) {
	f := &fakeAPI{answers: []func(http.ResponseWriter){answer(429, "", `{"success": false, "message": "rate limited", "requestId": "r9"}`)}}
	_, err := newTestClient(t, f, WithRetries(2)).PaymentPixGetWithResponse(context.Background(), "ch_1")
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 429 || apiErr.Message != "rate limited" || apiErr.RequestID != "r9" {
		t.Fatalf("err = %v", err)
	}
	if len(f.at) != 3 {
		t.Fatalf("%d attempts, want 1 + 2 retries", len(f.at))
	}
	if f.idemKeys[0] != "" {
		t.Errorf("a GET got an Idempotency-Key %q", f.idemKeys[0])
	}
}

// TestErrorsAreTypedAndNotRetried: a 400 is final, its envelope an *Error
// naming the field; a caller's Idempotency-Key is sent as given.
func TestErrorsAreTypedAndNotRetried(t *testing.T) {
	f := &fakeAPI{answers: []func(http.ResponseWriter){answer(400, "", `{"success": false, "message": "amount: must be positive", "requestId": "r2"}`)}}
	_, err := newTestClient(t, f).PaymentPixCreateWithResponse(context.Background(), nil, charge, IdempotencyKey("order-1"))
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Message != "amount: must be positive" {
		t.Fatalf("err = %v", err)
	}
	if len(f.at) != 1 || f.idemKeys[0] != "order-1" {
		t.Fatalf("attempts %d, idempotency keys %q", len(f.at), f.idemKeys)
	}
}

// TestRetryWaitEndsWithTheContext: a caller's deadline ends a long
// Retry-After wait.
func TestRetryWaitEndsWithTheContext(t *testing.T) {
	f := &fakeAPI{answers: []func(http.ResponseWriter){answer(503, "3600", `{"success": false, "message": "busy", "requestId": "r0"}`)}}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := newTestClient(t, f).PaymentPixGetWithResponse(ctx, "ch_1")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
}

func TestRetryAfterParses(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"":     0,
		"7":    7 * time.Second,
		"-1":   0,
		"soon": 0,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second,
		now.Add(-time.Minute).Format(http.TimeFormat):     0,
	} {
		res := &http.Response{Header: http.Header{}}
		if v != "" {
			res.Header.Set("Retry-After", v)
		}
		if got := retryAfter(res, now); got != want {
			t.Errorf("Retry-After %q: %v, want %v", v, got, want)
		}
	}
}
