package ratelimit

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// SharedFailures is Failures shared by every API process through Redis:
// each id's failures are a sorted set of their times, trimmed to the
// window and to the newest limit, so the replicas together allow what one
// does. While Redis is away it counts locally at 1/Replicas of each limit.
type SharedFailures struct {
	r      *Redis
	window time.Duration
	local  *Failures
}

// NewSharedFailures counts failures over window on r.
func NewSharedFailures(r *Redis, window time.Duration) *SharedFailures {
	return &SharedFailures{r: r, window: window, local: NewFailures(window)}
}

// Blocked answers how long id must wait before another attempt: zero when
// fewer than limit failures fall inside the window (limit 0: no limit).
func (f *SharedFailures) Blocked(ctx context.Context, id string, limit int) time.Duration {
	if limit <= 0 {
		return 0
	}
	now := time.Now()
	var times []redis.Z
	err := f.r.do(ctx, func(ctx context.Context) error {
		key := f.r.key("fail", id)
		var rng *redis.ZSliceCmd
		_, err := f.r.Client.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.ZRemRangeByScore(ctx, key, "-inf", strconv.FormatInt(now.Add(-f.window).UnixMicro(), 10))
			rng = p.ZRangeWithScores(ctx, key, 0, -1)
			return nil
		})
		times = rng.Val()
		return err
	})
	if err != nil {
		return f.local.Blocked(ctx, id, f.r.share(limit))
	}
	if len(times) < limit {
		return 0
	}
	oldest := time.UnixMicro(int64(times[len(times)-limit].Score))
	return max(oldest.Add(f.window).Sub(now), time.Millisecond)
}

// Fail counts a failure of id; only the newest limit are kept.
func (f *SharedFailures) Fail(ctx context.Context, id string, limit int) {
	if limit <= 0 {
		return
	}
	now := time.Now()
	err := f.r.do(ctx, func(ctx context.Context) error {
		key := f.r.key("fail", id)
		_, err := f.r.Client.TxPipelined(ctx, func(p redis.Pipeliner) error {
			// A member unique to this failure: two at one instant both count.
			p.ZAdd(ctx, key, redis.Z{Score: float64(now.UnixMicro()), Member: strconv.FormatInt(now.UnixNano(), 36) + ":" + newMember()})
			p.ZRemRangeByScore(ctx, key, "-inf", strconv.FormatInt(now.Add(-f.window).UnixMicro(), 10))
			p.ZRemRangeByRank(ctx, key, 0, int64(-limit-1))
			p.PExpire(ctx, key, f.window)
			return nil
		})
		return err
	})
	if err != nil {
		f.local.Fail(ctx, id, f.r.share(limit))
	}
}

// Forget drops id's failures (a success ends an e-mail's run of them).
func (f *SharedFailures) Forget(ctx context.Context, id string) {
	f.local.Forget(ctx, id)
	_ = f.r.do(ctx, func(ctx context.Context) error { return f.r.Client.Del(ctx, f.r.key("fail", id)).Err() })
}
