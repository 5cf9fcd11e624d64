// Package client is the Go client of Jangada's merchant API: the typed
// operations generated from the OpenAPI document (package client/oapi),
// behind a transport that authenticates with the API key, retries 429 and
// 503 answers with backoff (honouring Retry-After), makes creates safe to
// retry (an Idempotency-Key on every POST that has none) and unwraps the
// envelope: an operation's JSON200 is the envelope's data, and an error
// answer is an *Error.
//
//	c, err := client.New("https://api.example.com/v1", apiKey)
//	res, err := c.PaymentPixCreateWithResponse(ctx, nil, oapi.PaymentPixCreateJSONRequestBody{Amount: 25.9, Description: "Pedido 1"})
//	var apiErr *client.Error
//	if errors.As(err, &apiErr) && apiErr.StatusCode == 400 { … apiErr.Message names the field … }
//	charge := res.JSON200 // *oapi.ChargeCreated
//
// Webhook deliveries are verified with Verify (webhook/verify).
package client

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/jangada/jangada/client/oapi"
)

// Client is the merchant API's typed client: every operation of
// oapi.ClientWithResponses (XxxWithResponse), through the transport New
// builds.
type Client struct {
	*oapi.ClientWithResponses
}

// Option configures New.
type Option func(*transport)

// WithHTTPClient sends the requests through hc (its timeout, proxy, TLS).
func WithHTTPClient(hc *http.Client) Option { return func(t *transport) { t.http = hc } }

// WithRetries sets how many times a 429 or 503 answer (or a request that
// never reached the server) is retried; 0 disables retries. Default 3.
func WithRetries(n int) Option { return func(t *transport) { t.retries = n } }

// WithBackoff sets the first wait between attempts, doubled at each retry
// up to max, when the answer has no Retry-After. Default 250 ms, 5 s.
func WithBackoff(first, max time.Duration) Option {
	return func(t *transport) { t.backoff, t.maxBackoff = first, max }
}

// New is a client of the API at baseURL (with its /v1) authenticating with
// apiKey (X-API-Key).
func New(baseURL, apiKey string, opts ...Option) (*Client, error) {
	t := &transport{key: apiKey, http: http.DefaultClient, retries: 3, backoff: 250 * time.Millisecond, maxBackoff: 5 * time.Second}
	for _, o := range opts {
		o(t)
	}
	c, err := oapi.NewClientWithResponses(baseURL, oapi.WithHTTPClient(t))
	if err != nil {
		return nil, err
	}
	return &Client{c}, nil
}

// IdempotencyKey sets the request's Idempotency-Key: the same key (per API
// key) answers with what the first attempt did. Pass it as a request
// editor to any create (the generated Params have the field as well).
func IdempotencyKey(key string) oapi.RequestEditorFn {
	return func(_ context.Context, r *http.Request) error {
		r.Header.Set("Idempotency-Key", key)
		return nil
	}
}

// Error is an error answer of the API: its status and the error
// envelope's message (which names the field of a 400) and request id.
type Error struct {
	StatusCode int
	Message    string
	RequestID  string
	// RetryAfter is the answer's Retry-After (429, 503), zero without one.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	return fmt.Sprintf("jangada: %d %s: %s (request %s)", e.StatusCode, http.StatusText(e.StatusCode), e.Message, e.RequestID)
}

// envelope is every JSON answer of the API.
type envelope struct {
	Success   bool            `json:"success"`
	Message   string          `json:"message"`
	Data      json.RawMessage `json:"data"`
	RequestID string          `json:"requestId"`
}

// unwrap turns an answer into what the generated code decodes: a
// success's data as the body, an error envelope as an *Error. An answer
// that is not JSON (a PNG, a page) passes as it is.
func unwrap(res *http.Response) (*http.Response, error) {
	mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	var env envelope
	if mt != "application/json" || json.Unmarshal(body, &env) != nil {
		if res.StatusCode >= 300 {
			return nil, &Error{StatusCode: res.StatusCode, Message: string(bytes.TrimSpace(body)), RetryAfter: retryAfter(res, time.Now())}
		}
		res.Body = io.NopCloser(bytes.NewReader(body))
		return res, nil
	}
	if res.StatusCode >= 300 || !env.Success {
		return nil, &Error{StatusCode: res.StatusCode, Message: env.Message, RequestID: env.RequestID, RetryAfter: retryAfter(res, time.Now())}
	}
	if len(env.Data) == 0 {
		env.Data = []byte("null")
	}
	res.Body = io.NopCloser(bytes.NewReader(env.Data))
	res.ContentLength = int64(len(env.Data))
	return res, nil
}

// newKey is a random Idempotency-Key for a POST sent without one, so that
// its retries cannot make the resource twice.
func newKey() string {
	return "client-" + rand.Text()
}
