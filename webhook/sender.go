package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// DefaultTimeout bounds one delivery attempt: connecting, sending and
// receiving the response headers and up to MaxResponseBody bytes.
const DefaultTimeout = 10 * time.Second

// MaxResponseBody is how much of a receiver's answer is read (and kept for
// the delivery history); the rest is discarded unread.
const MaxResponseBody = 4 << 10

// ErrForbiddenAddress is returned when a destination resolves to a
// loopback, private, link-local or otherwise non-public address.
var ErrForbiddenAddress = errors.New("destination address is not public")

// Sender posts signed webhook bodies. Its dialer checks the address it
// actually connects to, after DNS resolution, so a name that resolves to a
// public address at validation and a private one later (DNS rebinding)
// still cannot reach the internal network.
type Sender struct {
	client  *http.Client
	timeout time.Duration
	now     func() time.Time
}

// NewSender builds a sender; allowPrivate lifts the address check (dev and
// tests, where the receiver runs on localhost).
func NewSender(timeout time.Duration, allowPrivate bool) *Sender {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	dialer := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			ip, err := netip.ParseAddr(host)
			if err != nil || !PublicAddr(ip) {
				return fmt.Errorf("%w: %s", ErrForbiddenAddress, host)
			}
			return nil
		}
	}
	tr := &http.Transport{
		Proxy:                 nil, // a proxy would make the address check meaningless
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       90 * time.Second,
	}
	return &Sender{
		client: &http.Client{
			Transport: tr,
			Timeout:   timeout,
			// A redirect is an answer, not a new destination: following it
			// would let any endpoint point deliveries anywhere.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		timeout: timeout,
		now:     time.Now,
	}
}

// Message is one signed delivery to send.
type Message struct {
	URL, Secret, DeliveryID, EventType string
	Body                               []byte
}

// Result is the outcome of one attempt.
type Result struct {
	StatusCode int           // 0 when no response arrived
	Latency    time.Duration // from sending to the end of the read body
	Err        string        // why the attempt failed, "" on 2xx
	Body       string        // the first MaxResponseBody bytes of the answer
}

// Delivered reports whether the receiver accepted the delivery (2xx).
func (r Result) Delivered() bool { return r.StatusCode >= 200 && r.StatusCode < 300 && r.Err == "" }

// Send posts m.Body exactly as given, signed with both schemes.
func (s *Sender) Send(ctx context.Context, m Message) Result {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.URL, bytes.NewReader(m.Body))
	if err != nil {
		return Result{Err: "invalid endpoint URL: " + err.Error()}
	}
	ts := s.now()
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "Jangada-Webhooks/1.0")
	h.Set("x-jangada-event", m.EventType)
	h.Set("x-jangada-delivery", m.DeliveryID)
	h.Set("x-jangada-signature", Signature(m.Secret, m.Body))
	h.Set("webhook-id", m.DeliveryID)
	h.Set("webhook-timestamp", strconv.FormatInt(ts.Unix(), 10))
	h.Set("webhook-signature", StandardSignature(m.Secret, m.DeliveryID, ts, m.Body))
	start := time.Now()
	res, err := s.client.Do(req)
	if err != nil {
		return Result{Latency: time.Since(start), Err: describe(err)}
	}
	defer res.Body.Close()
	body, rerr := io.ReadAll(io.LimitReader(res.Body, MaxResponseBody))
	out := Result{StatusCode: res.StatusCode, Latency: time.Since(start), Body: strings.ReplaceAll(strings.ToValidUTF8(string(body), "?"), "\x00", "")}
	switch {
	case res.StatusCode >= 300 && res.StatusCode < 400:
		out.Err = fmt.Sprintf("HTTP %d: redirects are not followed (Location %q)", res.StatusCode, res.Header.Get("Location"))
	case res.StatusCode < 200 || res.StatusCode >= 300:
		out.Err = fmt.Sprintf("HTTP %d", res.StatusCode)
	case rerr != nil:
		// The status arrived: the receiver accepted it even if the body broke off.
	}
	return out
}

// describe turns a transport error into a short, operator-readable reason.
func describe(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch {
	case errors.Is(err, ErrForbiddenAddress):
		return err.Error()
	case errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Client.Timeout"):
		return "timeout: no answer in time"
	}
	return err.Error()
}
