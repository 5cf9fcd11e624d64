package dispatch_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/dispatch"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

// published counts what a tail hands to Publish, by event id.
type published struct {
	mu    sync.Mutex
	count map[string]int
}

func (p *published) add(ev domain.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.count[ev.ID]++
}

func (p *published) times(id string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count[id]
}

// insert writes one event in a transaction of its own, committed outside
// db.InTx: no in-process hook learns of it, as with another process's.
func insert(t *testing.T, d *sqlx.DB, acct string) (*sqlx.Tx, domain.Event) {
	t.Helper()
	tx, err := d.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	evs, err := db.InsertEvents(t.Context(), tx, db.NewEvent{AccountID: acct, Type: domain.EventPaymentPaid, ResourceID: "tx_" + domain.NewID(""), Data: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	return tx, evs[0]
}

// foreign commits one event the tail can only learn of by reading, and
// waits until it published it: the drain has then read past every seq
// before it.
func foreign(t *testing.T, d *sqlx.DB, acct string, got *published) {
	t.Helper()
	tx, ev := insert(t, d, acct)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); got.times(ev.ID) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the tail never read the foreign event")
		}
	}
}

// A committed event handed to the tail in process is published at once,
// and the drain that reads it later, or finds it in a seq it skipped, does
// not publish it again.
func TestTailCommittedPublishesOnceBesideTheDrain(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewURL(t)
	d, err := db.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(d)
	if err := db.Migrate(t.Context(), d); err != nil {
		t.Fatal(err)
	}
	acct, err := service.NewAccount(t.Context(), d, "Tail Ltda", "tail-"+domain.NewID("")+"@example.com", "52998224725")
	if err != nil {
		t.Fatal(err)
	}
	got := &published{count: map[string]int{}}
	tail := &dispatch.Tail{DB: d, DSN: dsn, Publish: got.add, PollInterval: 20 * time.Millisecond}
	if tail.Committed([]domain.Event{{ID: "evt_early", Seq: 1}}) {
		t.Fatal("a tail that has not started took an event")
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan struct{})
	go func() { defer close(done); tail.Run(ctx) }()
	defer func() { cancel(); <-done }()
	<-tail.Ready()

	// Ahead of the drain: published by Committed, passed over by the drain.
	tx, ahead := insert(t, d, acct.ID)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if !tail.Committed([]domain.Event{ahead}) || got.times(ahead.ID) != 1 {
		t.Fatalf("Committed did not publish at once: %d", got.times(ahead.ID))
	}
	tail.Committed([]domain.Event{ahead}) // a second hand-over is a no-op

	// Behind the drain: its seq was skipped while its transaction was open.
	slow, behind := insert(t, d, acct.ID)
	foreign(t, d, acct.ID, got)
	if err := slow.Commit(); err != nil {
		t.Fatal(err)
	}
	tail.Committed([]domain.Event{behind})
	foreign(t, d, acct.ID, got)
	// The gap's own look-up runs within milliseconds of each read.
	foreign(t, d, acct.ID, got)

	for _, ev := range []domain.Event{ahead, behind} {
		if n := got.times(ev.ID); n != 1 {
			t.Errorf("event %d published %d times, want once", ev.Seq, n)
		}
	}
}
