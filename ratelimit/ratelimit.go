// Package ratelimit holds every budget of the API processes: requests per
// key and per address, the admin API's, the hosted pages', WebSocket
// authentication failures and connections, and failed logins. Each kind
// has a per-process implementation (Limiter, Failures, Slots) and one
// shared by every replica through Redis (Shared, SharedFailures,
// SharedSlots), which falls back to the per-process one at its share of the
// budget while Redis is away.
package ratelimit

import (
	"context"
	"hash/fnv"
	"sync"
	"time"
)

// Decision is a budget's answer to one request: whether it may proceed,
// how many more the budget takes now, when it is whole again (Reset) and,
// when refused, when the next one may be tried (RetryAfter).
type Decision struct {
	Allowed    bool
	Remaining  int
	Reset      time.Duration
	RetryAfter time.Duration
}

// Counter is a budget of limit requests a minute per id (a key, an
// address). Local is a Limiter; the production shape's is a Shared.
type Counter interface {
	// Allow counts one request for id and answers whether it proceeds.
	Allow(ctx context.Context, id string, limit int) Decision
	// Exhausted reports, without counting a request, whether id has spent
	// its budget.
	Exhausted(ctx context.Context, id string, limit int) bool
}

// Limiter counts requests (or attempts) per id — a key, an address — in
// fixed one-minute windows, in this process only (Shared counts across
// replicas).
type Limiter struct {
	shards [32]limiterShard
	now    func() time.Time
	// maxPerShard bounds each shard's windows (maxWindowsPerShard).
	maxPerShard int
}

type limiterShard struct {
	mu      sync.Mutex
	windows map[string]*window
}

type window struct {
	start time.Time
	count int
}

// New returns an empty limiter.
func New() *Limiter {
	l := &Limiter{now: time.Now, maxPerShard: maxWindowsPerShard}
	for i := range l.shards {
		l.shards[i].windows = map[string]*window{}
	}
	return l
}

func (l *Limiter) shard(id string) *limiterShard {
	h := fnv.New32a()
	h.Write([]byte(id))
	return &l.shards[h.Sum32()%uint32(len(l.shards))]
}

// Allow counts one request for id against limit per minute.
func (l *Limiter) Allow(_ context.Context, id string, limit int) Decision {
	ok, left, reset := l.allow(id, limit)
	d := Decision{Allowed: ok, Remaining: left, Reset: time.Until(reset)}
	if !ok {
		d.RetryAfter = d.Reset
	}
	return d
}

// allow counts one request for id against limit per minute and returns
// whether it may proceed, the requests left and when the window resets.
func (l *Limiter) allow(id string, limit int) (bool, int, time.Time) {
	s := l.shard(id)
	now := l.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.windows[id]
	if w == nil || now.Sub(w.start) >= time.Minute {
		s.makeRoom(now, l.maxPerShard)
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

// Exhausted reports, without counting a request, whether id has spent its
// budget of limit in the current window.
func (l *Limiter) Exhausted(_ context.Context, id string, limit int) bool {
	s := l.shard(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.windows[id]
	return w != nil && l.now().Sub(w.start) < time.Minute && w.count >= limit
}

// maxWindowsPerShard bounds the limiter's memory under rotating addresses:
// 32 shards × 8192 windows.
const maxWindowsPerShard = 8192

// makeRoom forgets finished windows when the shard is full and, if every
// window is still running (a flood from rotating addresses), forgets
// arbitrary ones: memory stays bounded whatever the traffic.
func (s *limiterShard) makeRoom(now time.Time, capacity int) {
	if len(s.windows) < capacity {
		return
	}
	for k, old := range s.windows {
		if now.Sub(old.start) >= time.Minute {
			delete(s.windows, k)
		}
	}
	for k := range s.windows {
		if len(s.windows) < capacity {
			break
		}
		delete(s.windows, k)
	}
}
