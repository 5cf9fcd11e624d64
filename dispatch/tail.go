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

// gapTTL is how long the tail waits for a missing seq: a transaction that
// took a seq and has not committed yet (or rolled back, and never will).
const gapTTL = time.Minute

// maxGaps bounds the seqs watched at once (a huge rolled-back batch).
const maxGaps = 10000

// Tail feeds one API process's WebSocket hub: it reads the outbox by seq
// from where it started and hands every event to Publish exactly once. It
// is independent of webhook dispatch, so every API process sees every
// event, whichever process (or worker) committed it.
//
// A seq is taken at insert and becomes visible at commit, so a later seq
// can be read before an earlier one. The tail remembers the seqs it
// skipped and looks for them again (quickly at first) for gapTTL; it does
// not wait for them, so one slow transaction anywhere never delays the
// others' events. A payment's own events are still in order: each of its
// transitions commits before the next one starts.
//
// Its listener also hears every change of a key or an account, from any
// process (db.AuthChangedChannel), and makes the keys the process resolved
// before stale (db.AuthChanged; service.Auth).
type Tail struct {
	DB  *sqlx.DB
	DSN string
	// Publish receives each event once.
	Publish func(domain.Event)
	// KeyRevoked, when set, learns of revoked keys from any process.
	KeyRevoked   func(keyID string)
	PollInterval time.Duration
	// Origin is this process's Notifier.Origin: its own notifications are
	// skipped (the commit woke the tail directly).
	Origin string

	once sync.Once
	wake chan struct{}
	// drains counts the reads done, so a test can wait for the first one
	// (the look at everything that follows the LISTENs).
	drains atomic.Int64
	// ready is closed once the start position is taken and the LISTENs are
	// in place: events committed after that reach Publish, and revocations
	// reach KeyRevoked, without waiting for a poll.
	ready chan struct{}

	// mu guards the read position, the skipped seqs and early: the drain
	// and Committed both publish under it, so each seq is published once.
	mu      sync.Mutex
	started bool
	last    int64
	gaps    map[int64]time.Time
	// early are seqs after last that Committed published before the drain
	// read them: the drain passes over them once, then forgets them.
	early map[int64]struct{}
}

func (t *Tail) init() {
	t.once.Do(func() { t.wake, t.ready = make(chan struct{}, 1), make(chan struct{}) })
}

// Wake makes the tail read now (the in-process fast path beside NOTIFY).
func (t *Tail) Wake() { t.init(); signal(t.wake) }

// Ready is closed once the tail has its start position and listens.
func (t *Tail) Ready() <-chan struct{} { t.init(); return t.ready }

// Run tails the outbox until ctx ends.
func (t *Tail) Run(ctx context.Context) {
	t.init()
	for {
		last, missing, err := db.TailStart(ctx, t.DB, 1000)
		if err == nil {
			t.mu.Lock()
			t.last, t.gaps, t.early, t.started = last, map[int64]time.Time{}, map[int64]struct{}{}, true
			now := time.Now()
			for _, s := range missing {
				t.gaps[s] = now
			}
			t.mu.Unlock()
			break
		}
		slog.Error("event tail start", "error", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
	var retrying atomic.Bool
	streak := 0
	pace := pacer{every: TailGather}
	listening := func() { close(t.ready) }
	channels := []string{db.EventsChannel, db.KeysRevokedChannel, db.AuthChangedChannel}
	db.Listen(ctx, t.DSN, channels, t.wake, pollEvery(t.PollInterval), listening, func(ch, payload string) {
		if ch == db.AuthChangedChannel {
			// Another process changed a key or an account: the keys this
			// process resolved before are stale (service.Auth).
			db.AuthChanged()
			return
		}
		if ch == db.KeysRevokedChannel {
			if t.KeyRevoked != nil && payload != "" {
				t.KeyRevoked(payload)
			}
			return
		}
		if ch == db.EventsChannel && payload != "" && payload == t.Origin {
			return
		}
		pace.wait(ctx)
		if err := t.drain(ctx); err != nil {
			if ctx.Err() == nil {
				slog.Error("event tail", "error", err)
			}
			return
		}
		t.drains.Add(1)
		// Skipped seqs usually commit within milliseconds: look again soon,
		// backing off while they stay missing.
		if t.gapCount() == 0 {
			streak = 0
			return
		}
		if retrying.CompareAndSwap(false, true) {
			delay := min(2*time.Millisecond<<min(streak, 10), max(pollEvery(t.PollInterval), 100*time.Millisecond))
			streak++
			time.AfterFunc(delay, func() { retrying.Store(false); t.Wake() })
		}
	})
}

// Committed publishes events this process has just committed without
// waiting for the drain to read them back (the in-process fast path: a
// payment's frame leaves as its transaction commits), but only while that
// is the order a read would give: nothing before them unread (every seq
// since the last read was published this way) and no skipped seq that may
// still commit. Otherwise it publishes nothing more and reports false: the
// caller wakes the drain, which reads them in order. A run published with
// nothing before it unread moves the read position past it, and the drain
// passes over any other event Committed published, so each event reaches
// Publish once, is read back by no drain when it need not be, and a
// payment's events keep their order whichever process committed them.
func (t *Tail) Committed(evs []domain.Event) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.started || len(t.gaps) > 0 {
		return false
	}
	for _, ev := range evs {
		if _, done := t.early[ev.Seq]; done || ev.Seq <= t.last {
			// Published already: with no skipped seq, every seq up to
			// last has been, by the drain or here.
			continue
		}
		for s := t.last + 1; s < ev.Seq; s++ {
			if _, done := t.early[s]; !done {
				return false
			}
		}
		t.early[ev.Seq] = struct{}{}
		t.Publish(ev)
		// A run published here with nothing before it unread moves the
		// read position past it: the drain need not read it back.
		for {
			if _, done := t.early[t.last+1]; !done {
				break
			}
			delete(t.early, t.last+1)
			t.last++
		}
	}
	return true
}

func (t *Tail) gapCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.gaps)
}

// drain publishes the skipped seqs that have committed since, then every
// event after the last seq read. It reads without the lock (a read takes
// a round trip) and publishes under it.
func (t *Tail) drain(ctx context.Context) error {
	t.mu.Lock()
	now := time.Now()
	seqs := make([]int64, 0, len(t.gaps))
	for s, since := range t.gaps {
		if now.Sub(since) > gapTTL {
			delete(t.gaps, s)
			continue
		}
		seqs = append(seqs, s)
	}
	t.mu.Unlock()
	if len(seqs) > 0 {
		evs, err := db.EventsBySeq(ctx, t.DB, seqs)
		if err != nil {
			return err
		}
		t.mu.Lock()
		for _, ev := range evs {
			delete(t.gaps, ev.Seq)
			t.Publish(ev)
		}
		t.mu.Unlock()
	}
	for {
		t.mu.Lock()
		last := t.last
		t.mu.Unlock()
		evs, err := db.EventsAfterSeq(ctx, t.DB, last, 500)
		if err != nil {
			return err
		}
		t.mu.Lock()
		now := time.Now()
		for _, ev := range evs {
			if ev.Seq <= t.last {
				continue // Committed published it and moved past it during the read
			}
			for s := t.last + 1; s < ev.Seq; s++ {
				if _, done := t.early[s]; done {
					delete(t.early, s)
				} else if len(t.gaps) < maxGaps {
					t.gaps[s] = now
				} else if len(t.early) == 0 {
					break
				}
			}
			t.last = ev.Seq
			if _, done := t.early[ev.Seq]; done {
				delete(t.early, ev.Seq)
				continue
			}
			t.Publish(ev)
		}
		t.mu.Unlock()
		if len(evs) < 500 {
			return nil
		}
	}
}
