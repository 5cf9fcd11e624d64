package dispatch

import (
	"context"
	"log/slog"
	"sync"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
)

// Notifier tells the outbox readers of other processes that this process
// committed events: one NOTIFY on db.EventsChannel, in its own statement
// outside every business transaction: the first poke after a quiet spell
// is sent at once, then at most one per NotifyGather (pokes that arrive
// meanwhile, or while one is being sent, coalesce). The database-wide lock
// a notifying transaction takes at commit is then taken by this small
// statement, at most once per gather, instead of by every payment's commit.
type Notifier struct {
	DB *sqlx.DB
	// Origin is the payload: this process's readers woke already, and
	// skip the notifications that carry their own process's Origin.
	Origin string

	once sync.Once
	wake chan struct{}
}

func (n *Notifier) init() { n.once.Do(func() { n.wake = make(chan struct{}, 1) }) }

// Poke asks for one NOTIFY soon; it never blocks.
func (n *Notifier) Poke() { n.init(); signal(n.wake) }

// Run sends the NOTIFYs until ctx ends. A failed one is only logged: the
// readers poll, so a lost wake-up delays, never loses, an event.
func (n *Notifier) Run(ctx context.Context) {
	n.init()
	pace := pacer{every: NotifyGather}
	for {
		select {
		case <-ctx.Done():
			return
		case <-n.wake:
		}
		pace.wait(ctx)
		if err := db.NotifyEvents(ctx, n.DB, n.Origin); err != nil && ctx.Err() == nil {
			slog.Warn("notify committed events", "error", err)
		}
	}
}
