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
func (s *Server) limit(c *gin.Context, id string, perMinute int) bool {
	allowed, remaining, reset := s.limiter.Allow(id, perMinute)
	secs := max(int(time.Until(reset).Seconds()+0.999), 1)
	c.Header("RateLimit-Limit", strconv.Itoa(perMinute))
	c.Header("RateLimit-Remaining", strconv.Itoa(remaining))
	c.Header("RateLimit-Reset", strconv.Itoa(secs))
	if !allowed {
		c.Header("Retry-After", strconv.Itoa(secs))
		fail(c, errRateLimited)
	}
	return allowed
}
