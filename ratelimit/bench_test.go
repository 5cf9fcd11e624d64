package ratelimit

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/jangada/jangada/domain"
)

// The limiter's cost per request, beside the bare machinery: the local
// limiter (a map under a lock), the shared one (one Redis round trip
// running redis_rate's GCRA script) and the bare Redis round trip it
// cannot beat (one INCR on the same connection pool). Each reports its
// p50 and p99 per request besides ns/op; run with nothing else on the
// machine (make bench).

// latencies collects each call's duration and reports p50 and p99.
func latencies(b *testing.B, call func(i int)) {
	b.Helper()
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		call(i)
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds()), "p99-ns")
}

func BenchmarkLimiterLocal(b *testing.B) {
	l := New()
	ctx := context.Background()
	latencies(b, func(i int) { l.Allow(ctx, "key:"+strconv.Itoa(i%64), 1_000_000) })
}

func benchRedis(b *testing.B) *Redis {
	b.Helper()
	r, err := NewRedis("redis://"+redisAddr()+"/0", 1, time.Second)
	if err != nil {
		b.Fatal(err)
	}
	r.Prefix = "bench:" + domain.NewID("") + ":"
	b.Cleanup(func() { r.Close() })
	if err := r.Client.Ping(context.Background()).Err(); err != nil {
		b.Skipf("no Redis at %s: %v", redisAddr(), err)
	}
	return r
}

func BenchmarkLimiterShared(b *testing.B) {
	s := NewShared(benchRedis(b))
	ctx := context.Background()
	latencies(b, func(i int) {
		if !s.Allow(ctx, "key:"+strconv.Itoa(i%64), 1_000_000).Allowed {
			b.Fatal("refused")
		}
	})
}

func BenchmarkRedisBareIncr(b *testing.B) {
	r := benchRedis(b)
	ctx := context.Background()
	var c redis.UniversalClient = r.Client
	latencies(b, func(i int) {
		if err := c.Incr(ctx, r.Prefix+strconv.Itoa(i%64)).Err(); err != nil {
			b.Fatal(err)
		}
	})
}
