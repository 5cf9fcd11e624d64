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

// Pacing: a reader's reads are spaced at least these apart, so that under a
// burst the commits that arrive meanwhile are read together (one dispatch
// transaction or one tail query for many events) instead of one read per
// commit competing with the payments for the database. A read woken after
// a quiet spell runs at once: a lone payment's frame or webhook waits for
// nothing (a fixed gather before every read added its whole length to
// each frame: 3 ms of a ~14 ms pay → WebSocket).
const (
	// DispatchGather spaces the webhook dispatcher's reads: a delivery's
	// budget is seconds, and a dispatch is a transaction of five
	// statements at least, whatever it claims. At 20 ms a create at 80/s
	// paid a whole dispatch for every two events (docs/performance.md,
	// item 31).
	DispatchGather = 50 * time.Millisecond
	// TailGather spaces the WebSocket tail's reads: a frame's budget is
	// tens of milliseconds.
	TailGather = 3 * time.Millisecond
	// NotifyGather spaces the NOTIFYs to other processes' readers:
	// committing at a few hundred per second, this process sent one NOTIFY
	// (a statement and a transaction) per commit; now at most about a
	// hundred a second. This process's own readers are woken directly.
	NotifyGather = 10 * time.Millisecond
)

// pacer spaces one reader's reads (it is not safe for concurrent use:
// each reader runs its reads on one goroutine).
type pacer struct {
	every time.Duration
	last  time.Time
}

// wait returns when the next read may run: at once after a quiet spell,
// else once every has passed since the last read (or when ctx ends).
func (p *pacer) wait(ctx context.Context) {
	if d := p.every - time.Since(p.last); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	p.last = time.Now()
}
