package db

import (
	"context"
	"log/slog"
	"time"

	"github.com/lib/pq"
)

// Listen is the one LISTEN loop: it merges what may signal new work —
// NOTIFYs on the channels, the in-process wake channel (may be nil) and a
// poll ticker (poll > 0) — until ctx ends. Each signal calls fn with the
// notification's channel and payload; fn("", "") means "look at
// everything": once at start, after a reconnection (NOTIFY is lost while
// nobody listens, so the durable state must be re-read), on a wake-up and
// on every poll. listening, when set, is called once the LISTENs are in
// place (or after 5 s of trying: fn("", "") still covers the gap).
func Listen(ctx context.Context, dsn string, channels []string, wake <-chan struct{}, poll time.Duration, listening func(), fn func(channel, payload string)) {
	l := pq.NewListener(dsn, 100*time.Millisecond, 10*time.Second, func(ev pq.ListenerEventType, err error) {
		if err != nil {
			slog.Warn("listener", "event", ev, "error", err)
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
			slog.Warn("listen", "channel", ch, "error", err)
		}
	}
	if listening != nil {
		listening()
	}
	fn("", "")
	var tick <-chan time.Time
	if poll > 0 {
		t := time.NewTicker(poll)
		defer t.Stop()
		tick = t.C
	}
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
		case <-tick:
			fn("", "")
		}
	}
}
