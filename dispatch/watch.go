package dispatch

import (
	"sync"

	"github.com/jangada/jangada/domain"
)

// Watchers hands the events this process's Tail reads to whoever watches
// their resources: the hosted checkout page's Server-Sent Events stream
// follows a session and its charge this way, fed by the same tail as the
// WebSocket hub (no second reader of the outbox, no API key involved). A
// watcher learns only that something happened to one of its resources; it
// reads the resource itself, so a wake lost to a full buffer costs nothing
// (another is pending).
type Watchers struct {
	mu    sync.Mutex
	byID  map[string]map[*watch]struct{}
	count int
}

type watch struct {
	ids  []string
	wake chan struct{}
}

// Publish wakes the watchers of ev's resource and of its account
// (AccountWatch: the dashboard's live pages), the Tail's Publish beside
// the hub's.
func (w *Watchers) Publish(ev domain.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, id := range [2]string{ev.ResourceID, AccountWatch(ev.AccountID)} {
		for x := range w.byID[id] {
			select {
			case x.wake <- struct{}{}:
			default: // a wake is already pending
			}
		}
	}
}

// AccountWatch is the id a watcher of every event of an account watches.
func AccountWatch(accountID string) string { return "account:" + accountID }

// Watch follows the resources ids until stop is called: wake receives
// after each of their events (coalesced).
func (w *Watchers) Watch(ids ...string) (wake <-chan struct{}, stop func()) {
	x := &watch{ids: ids, wake: make(chan struct{}, 1)}
	w.mu.Lock()
	if w.byID == nil {
		w.byID = map[string]map[*watch]struct{}{}
	}
	for _, id := range ids {
		if w.byID[id] == nil {
			w.byID[id] = map[*watch]struct{}{}
		}
		w.byID[id][x] = struct{}{}
	}
	w.count++
	w.mu.Unlock()
	var once sync.Once
	return x.wake, func() {
		once.Do(func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			for _, id := range x.ids {
				delete(w.byID[id], x)
				if len(w.byID[id]) == 0 {
					delete(w.byID, id)
				}
			}
			w.count--
		})
	}
}

// Count is how many watches are open.
func (w *Watchers) Count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.count
}
