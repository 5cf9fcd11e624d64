package dispatch

import (
	"context"
	"time"
)

// DefaultPollInterval is how often an outbox reader looks without being
// woken: NOTIFY is lost while a listener reconnects, so polling is the
// guarantee and NOTIFY only the fast path.
const DefaultPollInterval = time.Second

// pollEvery is the configured poll interval, or the default.
func pollEvery(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultPollInterval
	}
	return d
}

// signal wakes a reader without blocking; one pending signal is enough.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Gathering: a reader woken by a commit waits this long before it reads,
// so that the commits of a burst are read together (one dispatch
// transaction or one tail query for many events) instead of one read per
// commit competing with the payments for the database.
const (
	// DispatchGather delays the webhook dispatcher: a delivery's budget is
	// seconds, and a dispatch is a transaction of several statements.
	DispatchGather = 20 * time.Millisecond
	// TailGather delays the WebSocket tail a little: a frame's budget is
	// tens of milliseconds.
	TailGather = 3 * time.Millisecond
	// NotifyGather delays the NOTIFY to other processes' readers: committing
	// at a few hundred per second, this process sent one NOTIFY (a statement
	// and a transaction) per commit; now at most about a hundred a second.
	// This process's own readers are woken directly, so only a reader in
	// another process waits up to 10 ms more (a WebSocket frame's budget
	// is tens of milliseconds, a webhook's seconds).
	NotifyGather = 10 * time.Millisecond
)

// gather waits d, or until ctx ends.
func gather(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
