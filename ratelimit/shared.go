package ratelimit

import (
	"context"

	"github.com/go-redis/redis_rate/v10"
)

// Shared is a Counter every API process shares through Redis: a GCRA
// budget (github.com/go-redis/redis_rate) of limit requests a minute, with
// bursts of up to limit, so N replicas allow what one does. While Redis is
// away it falls back to a local Limiter at 1/Replicas of each budget.
type Shared struct {
	r     *Redis
	rl    *redis_rate.Limiter
	local *Limiter
}

// NewShared is a Counter on r.
func NewShared(r *Redis) *Shared {
	return &Shared{r: r, rl: redis_rate.NewLimiter(r.Client), local: New()}
}

// Allow counts one request for id against limit a minute.
func (s *Shared) Allow(ctx context.Context, id string, limit int) Decision {
	var res *redis_rate.Result
	err := s.r.do(ctx, func(ctx context.Context) (err error) {
		res, err = s.rl.Allow(ctx, s.r.key("rate", id), redis_rate.PerMinute(limit))
		return err
	})
	if err != nil {
		return s.local.Allow(ctx, id, s.r.share(limit))
	}
	d := Decision{Allowed: res.Allowed > 0, Remaining: res.Remaining, Reset: res.ResetAfter}
	if !d.Allowed {
		d.RetryAfter = res.RetryAfter
	}
	return d
}

// Exhausted reports, without counting a request, whether id has spent its
// budget.
func (s *Shared) Exhausted(ctx context.Context, id string, limit int) bool {
	var res *redis_rate.Result
	err := s.r.do(ctx, func(ctx context.Context) (err error) {
		res, err = s.rl.AllowN(ctx, s.r.key("rate", id), redis_rate.PerMinute(limit), 0)
		return err
	})
	if err != nil {
		return s.local.Exhausted(ctx, id, s.r.share(limit))
	}
	return res.Remaining < 1
}
