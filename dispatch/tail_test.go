package dispatch_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/dispatch"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/poll"
	"github.com/jangada/jangada/service"
)

// published records what a tail hands to Publish, in order.
type published struct {
	mu  sync.Mutex
	ids []string
}

func (p *published) add(ev domain.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ids = append(p.ids, ev.ID)
}

// times counts id's publications; at is the position of its first.
func (p *published) times(id string) (n, at int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	at = -1
	for i, x := range p.ids {
		if x == id {
			if n == 0 {
				at = i
			}
			n++
		}
	}
	return n, at
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

// commit commits one event as another process would: the tail learns of
// it only by reading.
func commit(t *testing.T, d *sqlx.DB, acct string) domain.Event {
	t.Helper()
	tx, ev := insert(t, d, acct)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return ev
}

// drained wakes the tail until it has published ev: its read has then
// passed every seq before ev.
func drained(t *testing.T, tail *dispatch.Tail, got *published, ev domain.Event) {
	t.Helper()
	poll.Until(t, 10*time.Second, fmt.Sprintf("the tail to read event %d", ev.Seq), func() bool {
		if n, _ := got.times(ev.ID); n > 0 {
			return true
		}
		tail.Wake()
		return false
	})
}

// A committed event handed to the tail in process is published at once
// when nothing before it is unread, and the drain that reads it later does
// not publish it again; one with an unread event before it (another
// process's, or a seq still open) is left to the drain, which publishes
// both in order.
func TestTailCommittedPublishesOnceAndInOrder(t *testing.T) {
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
	got := &published{}
	// No poll: the tail reads only when woken.
	tail := &dispatch.Tail{DB: d, DSN: dsn, Publish: got.add, PollInterval: time.Hour}
	if tail.Committed([]domain.Event{{ID: "evt_early", Seq: 1}}) {
		t.Fatal("a tail that has not started took an event")
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan struct{})
	go func() { defer close(done); tail.Run(ctx) }()
	defer func() { cancel(); <-done }()
	<-tail.Ready()
	// The look at everything that follows the LISTENs must be over, or it
	// could read the events below before Committed is handed them.
	poll.Until(t, 10*time.Second, "the tail's first read", func() bool { return dispatch.Drains(tail) >= 1 })

	// Nothing unread before it: published at once, twice handed over once.
	first, second := commit(t, d, acct.ID), commit(t, d, acct.ID)
	if !tail.Committed([]domain.Event{first, second}) || !tail.Committed([]domain.Event{second}) {
		t.Fatal("Committed refused events with nothing unread before them")
	}
	if n, _ := got.times(second.ID); n != 1 {
		t.Fatalf("published %d times at once, want 1", n)
	}
	// Nothing before them unread: the read position passed them, so the
	// drain does not read them back.
	if pos := dispatch.Position(tail); pos != second.Seq {
		t.Fatalf("the tail's position is %d after Committed published up to %d", pos, second.Seq)
	}

	// Another process's event, committed and not read yet, comes first.
	theirs := commit(t, d, acct.ID)
	ours := commit(t, d, acct.ID)
	if tail.Committed([]domain.Event{ours}) {
		t.Fatal("Committed published an event ahead of an unread one")
	}
	drained(t, tail, got, ours)
	_, atTheirs := got.times(theirs.ID)
	_, atOurs := got.times(ours.ID)
	if atTheirs < 0 || atTheirs > atOurs {
		t.Fatalf("out of order: %v", got.ids)
	}

	// A seq still open when the drain passed it: Committed waits for the
	// drain's look at it.
	open, late := insert(t, d, acct.ID)
	after := commit(t, d, acct.ID)
	drained(t, tail, got, after)
	if err := open.Commit(); err != nil {
		t.Fatal(err)
	}
	if tail.Committed([]domain.Event{late}) {
		t.Fatal("Committed published a skipped seq beside the drain")
	}
	// The skipped seq committed (here, or by another process): an event
	// after it waits for the drain too, unless the drain's own quick look
	// again at skipped seqs has read it by now (then it went first).
	mine := commit(t, d, acct.ID)
	if tail.Committed([]domain.Event{mine}) {
		if n, _ := got.times(late.ID); n == 0 {
			t.Fatal("Committed published an event while a skipped seq may have committed")
		}
	}
	drained(t, tail, got, mine)
	drained(t, tail, got, late)
	_, atLate := got.times(late.ID)
	_, atMine := got.times(mine.ID)
	if atLate > atMine {
		t.Fatalf("out of order: %v", got.ids)
	}

	for _, ev := range []domain.Event{first, second, theirs, ours, late, after, mine} {
		if n, _ := got.times(ev.ID); n != 1 {
			t.Errorf("event %d published %d times, want once", ev.Seq, n)
		}
	}
}
