package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// client talks to the api processes as a merchant's integration (or the
// operator) behind a load balancer would: each attempt goes to one api
// process, and a retry goes to the other one.
type client struct {
	apis       []*proc
	adminToken string
	http       *http.Client
	// retryFor bounds how long one operation is retried (transport errors,
	// 5xx, 429) before it is given up as unresolved.
	retryFor time.Duration

	attempts, retries atomic.Int64
}

// answer is a definite answer: a 2xx (ok) or a 4xx other than 429.
type answer struct {
	status  int
	message string
	data    json.RawMessage
}

func (a answer) ok() bool { return a.status >= 200 && a.status < 300 }

// errUnresolved is an operation that got no definite answer within retryFor.
type errUnresolved struct {
	op   string
	last string
}

func (e *errUnresolved) Error() string {
	return fmt.Sprintf("%s: no definite answer (last: %s)", e.op, e.last)
}

// call sends one request with retries. idem, when set, is sent as the
// Idempotency-Key header on every attempt (every create is retried this
// way, as the README tells integrators to). key "" sends the admin token.
func (c *client) call(ctx context.Context, method, path, key, idem string, body any) (answer, error) {
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	return c.callRaw(ctx, method, path, key, idem, "application/json", raw)
}

// callRaw is call with a body already encoded as contentType (a multipart
// form: a dunning's documents).
func (c *client) callRaw(ctx context.Context, method, path, key, idem, contentType string, raw []byte) (answer, error) {
	deadline := time.Now().Add(c.retryFor)
	api := rand.IntN(len(c.apis))
	backoff := 100 * time.Millisecond
	var last string
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			c.retries.Add(1)
			if time.Now().Add(backoff).After(deadline) {
				return answer{}, &errUnresolved{op: method + " " + path, last: last}
			}
			select {
			case <-ctx.Done():
				return answer{}, ctx.Err()
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, time.Second)
			api = (api + 1) % len(c.apis)
		}
		c.attempts.Add(1)
		a, err := c.onceAs(ctx, c.addr(api, path), method, path, key, idem, contentType, raw)
		switch {
		case err != nil:
			last = err.Error()
		case a.status == 429 || a.status >= 500 || inFlight(a):
			last = fmt.Sprintf("HTTP %d %s", a.status, a.message)
		default:
			return a, nil
		}
		if ctx.Err() != nil {
			return answer{}, ctx.Err()
		}
	}
}

// inFlight is the answer to a retry that arrives while the first attempt
// with the same Idempotency-Key is still in flight: a 409 (with
// Retry-After) whose message asks to retry shortly, which is what the
// client does.
func inFlight(a answer) bool {
	return a.status == 409 && strings.Contains(a.message, "still in progress")
}

// addr is where api process api answers path: the admin API only on its
// operators' listener, the rest on the merchant port.
func (c *client) addr(api int, path string) string {
	if strings.HasPrefix(path, "/admin/") {
		return c.apis[api].AdminAddr
	}
	return c.apis[api].HTTPAddr
}

func (c *client) once(ctx context.Context, addr, method, path, key, idem string, raw []byte) (answer, error) {
	return c.onceAs(ctx, addr, method, path, key, idem, "application/json", raw)
}

func (c *client) onceAs(ctx context.Context, addr, method, path, key, idem, contentType string, raw []byte) (answer, error) {
	var rd io.Reader
	if raw != nil {
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://"+addr+path, rd)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", contentType)
	if key == "" {
		req.Header.Set("X-Admin-Token", c.adminToken)
	} else {
		req.Header.Set("X-API-Key", key)
	}
	if idem != "" {
		req.Header.Set("Idempotency-Key", idem)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return answer{}, err
	}
	var env struct {
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if json.Unmarshal(b, &env) != nil {
		env.Message = strings.TrimSpace(string(b))
	}
	return answer{status: res.StatusCode, message: env.Message, data: env.Data}, nil
}

// must is call for the setup steps: anything but a 2xx is an error.
func (c *client) must(ctx context.Context, method, path, key string, body, into any) error {
	a, err := c.call(ctx, method, path, key, "", body)
	if err != nil {
		return err
	}
	if !a.ok() {
		return fmt.Errorf("%s %s: HTTP %d %s", method, path, a.status, a.message)
	}
	if into != nil {
		return json.Unmarshal(a.data, into)
	}
	return nil
}

// merchant is one soak account with its full-permission key.
type merchant struct {
	ID, Email, Key, KeyID string
	// hook is the account's dashboard webhook endpoint (whole account, "*").
	HookID, HookSecret string
}

// newMerchant creates an account through the admin API with a key, fixed
// fees (R$ 0.50 in and out, no percentage: the soak's arithmetic depends
// on them), funding, and a dashboard webhook endpoint to the receiver
// (none when hookURL is "").
func (c *client) newMerchant(ctx context.Context, i int, tag, hookURL string, funding int64) (merchant, error) {
	m := merchant{Email: fmt.Sprintf("soak%d-%s@example.com", i, tag)}
	var acct struct{ ID string }
	if err := c.must(ctx, "POST", "/admin/v1/accounts", "", map[string]any{
		"name": fmt.Sprintf("Loja Soak %d", i), "email": m.Email, "document": "11.222.333/0001-81"}, &acct); err != nil {
		return m, err
	}
	m.ID = acct.ID
	if err := c.must(ctx, "PATCH", "/admin/v1/accounts/"+m.ID, "", map[string]any{
		"fees": map[string]any{"pixInFixed": 0.5, "pixInPercent": 0, "pixOutFixed": 0.5, "pixOutPercent": 0}}, nil); err != nil {
		return m, err
	}
	var k struct{ ID, Key string }
	if err := c.must(ctx, "POST", "/admin/v1/accounts/"+m.ID+"/keys", "", map[string]any{
		"name": "soak", "permissions": []string{"*"}, "rateLimitPerMinute": 1_000_000}, &k); err != nil {
		return m, err
	}
	m.Key, m.KeyID = k.Key, k.ID
	// One attempt only: an adjustment has no idempotency key, and a retry
	// of an ambiguous attempt could fund twice.
	raw, _ := json.Marshal(map[string]any{"amount": float64(funding) / 100, "description": "soak funding"})
	if a, err := c.once(ctx, c.addr(0, "/admin/v1"), "POST", "/admin/v1/accounts/"+m.ID+"/adjustments", "", "", raw); err != nil || !a.ok() {
		return m, fmt.Errorf("funding %s: HTTP %d %s %v", m.ID, a.status, a.message, err)
	}
	if hookURL == "" { // a scenario account: its events are not the webhook check's
		return m, nil
	}
	var h struct{ ID, Secret string }
	if err := c.must(ctx, "POST", "/admin/v1/accounts/"+m.ID+"/webhooks", "", map[string]any{
		"url": hookURL + "/" + m.ID, "events": []string{"*"}}, &h); err != nil {
		return m, err
	}
	m.HookID, m.HookSecret = h.ID, h.Secret
	return m, nil
}
