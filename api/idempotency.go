package api

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

const idempotencyKeyCtx = "idempotencyKey"

// idempotencyKey is the request's Idempotency-Key scoped by its API key
// (scopedKey; "" without one): what use cases derive resource ids from.
func idempotencyKey(c *gin.Context) string { return c.GetString(idempotencyKeyCtx) }

// idempotent makes a create safe to retry: with an Idempotency-Key header,
// the same key and the same body get the first answer again for 24 h
// (Idempotent-Replayed: true), the same key with another body is a 400,
// and a retry while the first is still in flight is a 409 with
// Retry-After (a client that treats 4xx as final must not record a
// failure for a payment that may go through). Keys belong to the API key
// that sent them: another key of the account reusing one starts afresh.
// An answer of 5xx is not kept, so the retry goes ahead — and converges on
// the first attempt's resource, whose id the use case derives from the
// scoped key; nor is a 4xx given after a takeover of a claim left in
// flight (the first attempt may have done the work the retry is refused).
// Past the 24 h window the key still names what it made: the same request
// answers with that resource again (Idempotent-Replayed: true), and
// another request whose key names a resource gets a 422 naming the header
// (the use cases' ownsKey), never that resource as if it were its own.
func (s *Server) idempotent(c *gin.Context) {
	header := c.GetHeader("Idempotency-Key")
	if header == "" {
		c.Next()
		return
	}
	if err := cleanValue("Idempotency-Key", header, 255); err != nil || strings.TrimSpace(header) != header {
		fail(c, domain.Invalid("Idempotency-Key", "must be 1 to 255 characters without surrounding spaces, NUL or invalid UTF-8"))
		return
	}
	body, err := io.ReadAll(io.LimitReader(c.Request.Body, maxBody+1))
	if err != nil {
		fail(c, domain.Invalidf("could not read the request body"))
		return
	}
	c.Request.Body = io.NopCloser(bytes.NewReader(body))
	h := hmac.New(sha256.New, s.fingerprint)
	fmt.Fprintf(h, "%s %s\n", c.Request.Method, c.Request.URL.Path)
	h.Write(body)
	acct := accountOf(c).ID
	key := scopedKey(keyOf(c).ID, header)
	ctx := c.Request.Context()
	claim, err := s.Idempotency.Claim(ctx, acct, key, h.Sum(nil))
	switch {
	case err != nil:
		fail(c, fmt.Errorf("%w: idempotency: %v", domain.ErrUnavailable, err))
		return
	case claim.Mismatch:
		fail(c, domain.Invalid("Idempotency-Key", "was already used with another request"))
		return
	case claim.InFlight:
		c.Header("Retry-After", "1")
		fail(c, &domain.Error{Kind: domain.ErrConflict, Message: "a request with this Idempotency-Key is still in progress; retry shortly"})
		return
	case claim.Stored != nil:
		c.Header("Idempotent-Replayed", "true")
		c.Data(claim.Stored.Status, "application/json; charset=utf-8", replayed(claim.Stored.Response, requestID(c)))
		c.Abort()
		return
	case !claim.Claimed:
		fail(c, fmt.Errorf("%w: idempotency key not claimed", domain.ErrUnavailable))
		return
	}
	c.Set(idempotencyKeyCtx, key)
	// Past its answer window the key still names what it made: the use
	// cases refuse to answer another request with it (claim.ReusedAt), and
	// the same request that succeeded answers with its resource again,
	// marked as a replay (claim.Replayed).
	c.Request = c.Request.WithContext(service.WithKeyUse(ctx, claim.ReusedAt, h.Sum(nil)))
	rec := &recorder{ResponseWriter: c.Writer, replayed: claim.Replayed}
	c.Writer = rec
	// The claim is settled even if the client went away (its context is
	// cancelled) or the handler panicked: a key must never stay "in flight".
	ctx = context.WithoutCancel(ctx)
	answered := false
	defer func() {
		if !answered {
			_ = s.Idempotency.Forget(ctx, acct, key)
		}
	}()
	c.Next()
	answered = true
	// A request that reused a key is remembered whatever it answered: a
	// success takes the key, a refusal (it made nothing) gives it back.
	if status := rec.Status(); status >= 500 || (claim.Reclaimed && claim.ReusedAt == nil && status >= 300) {
		err = s.Idempotency.Forget(ctx, acct, key)
	} else {
		err = s.Idempotency.Remember(ctx, acct, key, service.StoredAnswer{Status: status, Response: rec.body.Bytes()})
	}
	if err != nil {
		// The answer went out; only its replay is lost (a retry converges on
		// the same resource all the same).
		slog.WarnContext(ctx, "idempotency: answer not kept", "error", err, "requestId", requestID(c))
	}
}

// scopedKey is an Idempotency-Key as stored and as the use cases derive
// resource ids from it: scoped by the API key that sent it.
func scopedKey(apiKeyID, header string) string { return apiKeyID + " " + header }

// replayed puts this request's id into a stored envelope, so that a
// replay's requestId equals its X-Request-Id header.
func replayed(envelope []byte, id string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(envelope, &m) != nil {
		return envelope
	}
	m["requestId"], _ = json.Marshal(id)
	out, err := json.Marshal(m)
	if err != nil {
		return envelope
	}
	return out
}

// recorder keeps a copy of what a handler writes, and marks a success as
// a replay when the request is one (replayed).
type recorder struct {
	gin.ResponseWriter
	body     bytes.Buffer
	replayed bool
}

// WriteHeader adds Idempotent-Replayed to a replayed request's success.
func (r *recorder) WriteHeader(code int) {
	if r.replayed && code < 300 {
		r.Header().Set("Idempotent-Replayed", "true")
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

func (r *recorder) WriteString(s string) (int, error) {
	r.body.WriteString(s)
	return r.ResponseWriter.WriteString(s)
}

// fingerprintKey derives the key of the request fingerprint a claim stores. A body may
// hold a card number and CVV (billings/create, tokenize-card): an unkeyed
// hash of it, stored beside a card's last four and brand, can be reversed by
// trying every number. Keyed with a secret derived from the payload key
// (which never reaches the database), the stored fingerprint reveals
// nothing. A process without the key (tests) still fingerprints, unkeyed in
// effect.
func fingerprintKey(payloadKey string) []byte {
	m := hmac.New(sha256.New, []byte(payloadKey))
	m.Write([]byte("jangada idempotency fingerprint v1"))
	return m.Sum(nil)
}
