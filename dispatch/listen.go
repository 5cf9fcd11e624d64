package dispatch

import (
	"context"
	"log/slog"
	"time"

	"github.com/lib/pq"
)

// DefaultPollInterval is how often an outbox reader looks without being
// woken: NOTIFY is lost while a listener reconnects, so polling is the
// guarantee and NOTIFY only the fast path.
const DefaultPollInterval = time.Second

// wakeups merges what may signal new work: NOTIFYs on the channels, the
// in-process wake channel and the poll ticker. Each signal calls fn with
// the notification's channel and payload ("" for wake-ups and polls).
// listening, when set, is called once the LISTENs are in place (or after
// 5 s of trying: polling still covers the events).
func wakeups(ctx context.Context, dsn string, channels []string, wake <-chan struct{}, poll time.Duration, listening func(), fn func(channel, payload string)) {
	l := pq.NewListener(dsn, 100*time.Millisecond, 10*time.Second, func(ev pq.ListenerEventType, err error) {
		if err != nil {
			slog.Warn("outbox listener", "event", ev, "error", err)
		}
	})
	defer l.Close()
	// Listen only queues the channel while the connection is still being
	// made; wait for it so that "listening" means it.
	for deadline := time.Now().Add(5 * time.Second); l.Ping() != nil && time.Now().Before(deadline) && ctx.Err() == nil; {
		time.Sleep(10 * time.Millisecond)
	}
	for _, ch := range channels {
		if err := l.Listen(ch); err != nil {
			slog.Warn("outbox listen", "channel", ch, "error", err)
		}
	}
	if listening != nil {
		listening()
	}
	if poll <= 0 {
		poll = DefaultPollInterval
	}
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case n := <-l.Notify:
			if n == nil { // reconnected: anything may have been missed
				fn("", "")
				continue
			}
			fn(n.Channel, n.Extra)
		case <-wake:
			fn("", "")
		case <-t.C:
			fn("", "")
			t.Reset(poll)
		}
	}
}

// signal wakes a reader without blocking; one pending signal is enough.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
