package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// streamState is one read of a followed resource: its status, whether it
// can still change, and what the page's script is sent.
type streamState struct {
	Status string
	Open   bool
	Data   any
}

// statusStream is the pages' one event stream (a checkout session's, a
// portal charge's): Server-Sent Events "status" with read's Data each time
// the status changes, until it is no longer open. It wakes on the event
// tail's news of ids (SessionWatch), reads again after watching (so a move
// between the page and the watch is not missed), and also looks again at
// lookAt plus sessionExpiryLook, then every sessionExpiryLook while open
// (an expiry that writes no event).
func (s *Server) statusStream(c *gin.Context, ids []string, lookAt time.Time, read func(context.Context) (streamState, error)) {
	ctx := c.Request.Context()
	if s.SessionWatch == nil {
		c.AbortWithStatus(http.StatusServiceUnavailable)
		return
	}
	limit := s.cfg.PageStreamsPerAddress
	if limit <= 0 {
		limit = DefaultPageStreamsPerAddress
	}
	release, ok := s.slots.Acquire(ctx, "page-stream:"+c.ClientIP(), limit)
	if !ok {
		c.Header("Retry-After", "60")
		c.AbortWithStatus(http.StatusTooManyRequests)
		return
	}
	defer release()
	wake, stop := s.SessionWatch.Watch(ids...)
	defer stop()
	// The stream outlives the listener's write timeout.
	_ = http.NewResponseController(c.Writer).SetWriteDeadline(time.Time{})
	c.Header("Content-Type", "text/event-stream")
	c.Header("Cache-Control", "no-store")
	c.Header("X-Accel-Buffering", "no")
	c.Status(http.StatusOK)
	last, sent := "", false
	send := func() bool {
		st, err := read(ctx)
		if err != nil {
			return false
		}
		// The first read is always sent, whatever its status (an empty
		// one included): the page learns the stream is live.
		if sent && st.Status == last {
			return true
		}
		last, sent = st.Status, true
		b, _ := json.Marshal(st.Data)
		if _, err := fmt.Fprintf(c.Writer, "event: status\ndata: %s\n\n", b); err != nil {
			return false
		}
		c.Writer.Flush()
		return st.Open
	}
	if !send() {
		return
	}
	beat := time.NewTicker(sseHeartbeat)
	defer beat.Stop()
	look := time.NewTimer(max(time.Until(lookAt)+sessionExpiryLook, 0))
	defer look.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-look.C:
			if !send() {
				return
			}
			look.Reset(sessionExpiryLook)
		case <-beat.C:
			if _, err := fmt.Fprint(c.Writer, ": ping\n\n"); err != nil {
				return
			}
			c.Writer.Flush()
		case <-wake:
			if !send() {
				return
			}
		}
	}
}
