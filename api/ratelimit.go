package api

import (
	"errors"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
)

var errRateLimited = errors.New("rate limit exceeded")

// limit applies the limiter and writes the RateLimit-* headers; over the
// budget it answers 429 with Retry-After.
// The budget is the process's or, with JANGADA_REDIS_URL, every replica's
// (Deps.Limits), so the headers say the same whichever replica answers.
func (s *Server) limit(c *gin.Context, id string, perMinute int) bool {
	d := s.limiter.Allow(c.Request.Context(), id, perMinute)
	c.Header("RateLimit-Limit", strconv.Itoa(perMinute))
	c.Header("RateLimit-Remaining", strconv.Itoa(d.Remaining))
	c.Header("RateLimit-Reset", strconv.Itoa(seconds(d.Reset)))
	if !d.Allowed {
		c.Header("Retry-After", strconv.Itoa(seconds(d.RetryAfter)))
		fail(c, errRateLimited)
	}
	return d.Allowed
}

// seconds is d rounded up to whole seconds, at least 1 (a header's unit).
func seconds(d time.Duration) int { return max(int(d.Seconds()+0.999), 1) }
