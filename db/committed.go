package db

import (
	"sync"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
)

// Committed events reach the process's outbox readers at once through
// hooks called after the commit: the in-process fast path. Other processes
// learn of them from one coalesced NOTIFY sent outside any business
// transaction (dispatch.Notifier), and every reader also polls: the outbox
// table is the guarantee, the hooks only save waiting. No trigger NOTIFYs
// on insert: a transaction that notifies takes a database-wide lock at
// commit, which serialised every payment's commit.

// txEvents holds the events inserted by each open transaction run by InTx.
var txEvents sync.Map // *sqlx.Tx → []domain.Event

// committedHooks are the functions told of committed events.
var committedHooks struct {
	mu   sync.RWMutex
	next int
	fns  map[int]func(*sqlx.DB, []domain.Event)
}

// OnEventsCommitted calls fn with the events of every transaction that
// InTx commits in this process, after the commit, and the pool it ran on
// (nil when unknown): a process may hold several databases' pools (the
// tests do), and a seq means something only in its own database. fn must
// not block. remove unregisters it.
func OnEventsCommitted(fn func(*sqlx.DB, []domain.Event)) (remove func()) {
	h := &committedHooks
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fns == nil {
		h.fns = map[int]func(*sqlx.DB, []domain.Event){}
	}
	id := h.next
	h.next++
	h.fns[id] = fn
	return func() {
		h.mu.Lock()
		delete(h.fns, id)
		h.mu.Unlock()
	}
}

// noteEvent remembers an event inserted by tx until tx ends.
func noteEvent(tx *sqlx.Tx, ev domain.Event) {
	prev, _ := txEvents.Load(tx)
	evs, _ := prev.([]domain.Event)
	txEvents.Store(tx, append(evs, ev))
}

// endTx forgets tx's events and, when it committed, hands them to the
// hooks with d, the pool tx ran on.
func endTx(d *sqlx.DB, tx *sqlx.Tx, committed bool) {
	v, ok := txEvents.LoadAndDelete(tx)
	if !ok || !committed {
		return
	}
	eventsCommitted(d, v.([]domain.Event))
}

// eventsCommitted hands committed events to the hooks.
func eventsCommitted(d *sqlx.DB, evs []domain.Event) {
	h := &committedHooks
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, fn := range h.fns {
		fn(d, evs)
	}
}
