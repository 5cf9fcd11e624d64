package ratelimit

import (
	"context"
	"sync"
	"time"
)

// Failures counts failed attempts (logins) per id — an e-mail, an address —
// over a sliding window: once limit of them fall inside it, the id waits
// until the oldest leaves it. Nothing is refused for longer than the
// window, so a guesser's failures cannot lock a holder out for good. In
// this process only (SharedFailures counts across replicas).
type Failures struct {
	mu     sync.Mutex
	window time.Duration
	seen   map[string][]time.Time
	now    func() time.Time
	// sweepAt is the map size that triggers dropping ids whose failures
	// all left the window; it doubles past what is still live.
	sweepAt int
}

// NewFailures returns an empty count over window.
func NewFailures(window time.Duration) *Failures {
	return &Failures{window: window, seen: map[string][]time.Time{}, now: time.Now, sweepAt: 1024}
}

// Blocked answers how long id must wait before another attempt: zero when
// fewer than limit failures fall inside the window (limit 0: no limit).
func (f *Failures) Blocked(_ context.Context, id string, limit int) time.Duration {
	if limit <= 0 {
		return 0
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now()
	times := f.live(id, now)
	if len(times) < limit {
		return 0
	}
	return times[len(times)-limit].Add(f.window).Sub(now)
}

// Fail counts a failure of id; only the newest limit are kept.
func (f *Failures) Fail(_ context.Context, id string, limit int) {
	if limit <= 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now()
	times := append(f.live(id, now), now)
	if len(times) > limit {
		times = times[len(times)-limit:]
	}
	f.seen[id] = times
	if len(f.seen) >= f.sweepAt {
		for k := range f.seen {
			if len(f.live(k, now)) == 0 {
				delete(f.seen, k)
			}
		}
		f.sweepAt = max(1024, 2*len(f.seen))
	}
}

// Forget drops id's failures (a success ends an e-mail's run of them).
func (f *Failures) Forget(_ context.Context, id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.seen, id)
}

// live is id's failures inside the window at now, oldest first.
func (f *Failures) live(id string, now time.Time) []time.Time {
	times := f.seen[id]
	i := 0
	for i < len(times) && now.Sub(times[i]) >= f.window {
		i++
	}
	if i == len(times) {
		delete(f.seen, id)
		return nil
	}
	times = times[i:]
	f.seen[id] = times
	return times
}
