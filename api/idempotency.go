package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

const idempotencyKeyCtx = "idempotencyKey"

// idempotencyKey is the request's Idempotency-Key ("" without one).
func idempotencyKey(c *gin.Context) string { return c.GetString(idempotencyKeyCtx) }

// idempotent makes a create safe to retry: with an Idempotency-Key header,
// the same key and the same body get the first answer again for 24 h
// (Idempotent-Replayed: true), the same key with another body is a 400,
// and a retry while the first is still in flight is a 400 too. An answer
// of 5xx is not kept, so the retry goes ahead — and converges on the first
// attempt's resource, whose id the use case derives from the key.
func (s *Server) idempotent(c *gin.Context) {
	key := c.GetHeader("Idempotency-Key")
	if key == "" {
		c.Next()
		return
	}
	if err := cleanValue("Idempotency-Key", key, 255); err != nil || strings.TrimSpace(key) != key {
		fail(c, domain.Invalid("Idempotency-Key", "must be 1 to 255 characters without surrounding spaces, NUL or invalid UTF-8"))
		return
	}
	body, err := io.ReadAll(io.LimitReader(c.Request.Body, maxBody+1))
	if err != nil {
		fail(c, domain.Invalidf("could not read the request body"))
		return
	}
	c.Request.Body = io.NopCloser(bytes.NewReader(body))
	h := sha256.New()
	fmt.Fprintf(h, "%s %s\n", c.Request.Method, c.Request.URL.Path)
	h.Write(body)
	acct := accountOf(c).ID
	ctx := c.Request.Context()
	claimed, stored, inFlight, mismatch, err := db.Idempotency(ctx, s.db, acct, key, h.Sum(nil))
	switch {
	case err != nil:
		fail(c, fmt.Errorf("%w: idempotency: %v", domain.ErrUnavailable, err))
		return
	case mismatch:
		fail(c, domain.Invalid("Idempotency-Key", "was already used with another request"))
		return
	case inFlight:
		fail(c, &domain.Error{Kind: domain.ErrConflict, Message: "a request with this Idempotency-Key is still in progress; retry shortly"})
		return
	case stored != nil:
		c.Header("Idempotent-Replayed", "true")
		c.Data(stored.Status, "application/json; charset=utf-8", replayed(stored.Response, requestID(c)))
		c.Abort()
		return
	case !claimed:
		fail(c, fmt.Errorf("%w: idempotency key not claimed", domain.ErrUnavailable))
		return
	}
	c.Set(idempotencyKeyCtx, key)
	rec := &recorder{ResponseWriter: c.Writer}
	c.Writer = rec
	// The claim is settled even if the client went away (its context is
	// cancelled) or the handler panicked: a key must never stay "in flight".
	ctx = context.WithoutCancel(ctx)
	answered := false
	defer func() {
		if !answered {
			_ = db.Forget(ctx, s.db, acct, key)
		}
	}()
	c.Next()
	answered = true
	if status := rec.Status(); status >= 500 {
		err = db.Forget(ctx, s.db, acct, key)
	} else {
		err = db.Remember(ctx, s.db, acct, key, db.StoredAnswer{Status: status, Response: rec.body.Bytes()})
	}
	if err != nil {
		// The answer went out; only its replay is lost (a retry converges on
		// the same resource all the same).
		slog.WarnContext(ctx, "idempotency: answer not kept", "error", err, "requestId", requestID(c))
	}
}

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

// recorder keeps a copy of what a handler writes.
type recorder struct {
	gin.ResponseWriter
	body bytes.Buffer
}

func (r *recorder) Write(b []byte) (int, error) {
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

func (r *recorder) WriteString(s string) (int, error) {
	r.body.WriteString(s)
	return r.ResponseWriter.WriteString(s)
}
