package api

import (
	"errors"
	"hash/fnv"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

var errRateLimited = errors.New("rate limit exceeded")

// RateLimiter counts requests per key (or per IP) in fixed one-minute
// windows. It is per process: N API processes allow N times the budget.
type RateLimiter struct {
	shards [32]limiterShard
	now    func() time.Time
}

type limiterShard struct {
	mu      sync.Mutex
	windows map[string]*window
}

type window struct {
	start time.Time
	count int
}

// NewRateLimiter returns an empty limiter.
func NewRateLimiter() *RateLimiter {
	l := &RateLimiter{now: time.Now}
	for i := range l.shards {
		l.shards[i].windows = map[string]*window{}
	}
	return l
}

// Allow counts one request for id against limit per minute and returns
// whether it may proceed, the requests left and when the window resets.
func (l *RateLimiter) Allow(id string, limit int) (bool, int, time.Time) {
	h := fnv.New32a()
	h.Write([]byte(id))
	s := &l.shards[h.Sum32()%uint32(len(l.shards))]
	now := l.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.windows[id]
	if w == nil || now.Sub(w.start) >= time.Minute {
		if len(s.windows) > 10000 { // forget finished windows so memory stays bounded
			for k, old := range s.windows {
				if now.Sub(old.start) >= time.Minute {
					delete(s.windows, k)
				}
			}
		}
		w = &window{start: now}
		s.windows[id] = w
	}
	reset := w.start.Add(time.Minute)
	if w.count >= limit {
		return false, 0, reset
	}
	w.count++
	return true, limit - w.count, reset
}

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
