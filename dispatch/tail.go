package dispatch

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// Tail feeds one API process's WebSocket hub: it reads the outbox from
// where it started, in commit-safe (txid, seq) order, and hands every event
// to Publish exactly once and in order. It is independent of webhook
// dispatch, so every API process sees every event whichever process (or
// worker) committed it.
type Tail struct {
	DB  *sqlx.DB
	DSN string
	// Publish receives each event once, in order.
	Publish func(domain.Event)
	// KeyRevoked, when set, learns of revoked keys from any process.
	KeyRevoked   func(keyID string)
	PollInterval time.Duration

	once sync.Once
	wake chan struct{}
	// ready is closed once the start position is taken: events committed
	// after that are guaranteed to reach Publish.
	ready chan struct{}
}

func (t *Tail) init() {
	t.once.Do(func() { t.wake, t.ready = make(chan struct{}, 1), make(chan struct{}) })
}

// Wake makes the tail read now (the in-process fast path beside NOTIFY).
func (t *Tail) Wake() { t.init(); signal(t.wake) }

// Ready is closed once the tail has its start position.
func (t *Tail) Ready() <-chan struct{} { t.init(); return t.ready }

// Run tails the outbox until ctx ends.
func (t *Tail) Run(ctx context.Context) {
	t.init()
	var cur db.Cursor
	for {
		var err error
		if cur, err = db.TailStart(ctx, t.DB); err == nil {
			break
		}
		slog.Error("event tail start", "error", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
	close(t.ready)
	// held: committed events wait behind an older running transaction; look
	// again soon rather than at the next poll, backing off while it lasts.
	var retrying atomic.Bool
	streak := 0
	wakeups(ctx, t.DSN, []string{db.EventsChannel, db.KeysRevokedChannel}, t.wake, t.PollInterval, func(ch, payload string) {
		if ch == db.KeysRevokedChannel {
			if t.KeyRevoked != nil && payload != "" {
				t.KeyRevoked(payload)
			}
			return
		}
		for ctx.Err() == nil {
			evs, next, held, err := db.EventsAfter(ctx, t.DB, cur, 500)
			if err != nil {
				if ctx.Err() == nil {
					slog.Error("event tail", "error", err)
				}
				return
			}
			cur = next
			for _, ev := range evs {
				t.Publish(ev)
			}
			if held && len(evs) < 500 {
				if retrying.CompareAndSwap(false, true) {
					delay := min(2*time.Millisecond<<min(streak, 10), max(t.PollInterval, 100*time.Millisecond))
					streak++
					time.AfterFunc(delay, func() { retrying.Store(false); t.Wake() })
				}
				return
			}
			streak = 0
			if len(evs) < 500 {
				return
			}
		}
	})
}
