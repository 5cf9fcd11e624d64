package ratelimit

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// Under a flood from rotating addresses the limiter's memory stays bounded,
// and a known id keeps its own count.
func TestRateLimiterMemoryIsBounded(t *testing.T) {
	t.Parallel()
	l := New()
	now := time.Unix(1_800_000_000, 0)
	l.now = func() time.Time { return now }
	l.maxPerShard = 64
	for i := range 20_000 {
		l.Allow(context.Background(), fmt.Sprintf("ip:10.%d.%d.%d", i>>16&255, i>>8&255, i&255), 100)
	}
	total := 0
	for i := range l.shards {
		total += len(l.shards[i].windows)
	}
	if limit := len(l.shards) * l.maxPerShard; total > limit {
		t.Fatalf("%d windows kept, more than %d", total, limit)
	}
	for range 3 {
		l.Allow(context.Background(), "key:k", 3)
	}
	if !l.Exhausted(context.Background(), "key:k", 3) {
		t.Fatal("a spent budget is not reported exhausted")
	}
	now = now.Add(time.Minute)
	if l.Exhausted(context.Background(), "key:k", 3) {
		t.Fatal("a finished window is still exhausted")
	}
}
