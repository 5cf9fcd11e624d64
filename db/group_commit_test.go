package db

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lib/pq"
)

// fakeBatches is a batch runner that hands each batch to the test and
// answers with what the test says.
type fakeBatches struct {
	got    chan []PostedMove
	answer chan error
	queued chan struct{}
}

func newFakeGroup(lanes, maxBatch int) (*GroupCommit, *fakeBatches) {
	f := &fakeBatches{got: make(chan []PostedMove, 16), answer: make(chan error, 16), queued: make(chan struct{}, 16)}
	g := &GroupCommit{Lanes: lanes, MaxBatch: maxBatch}
	g.queued = func() { f.queued <- struct{}{} }
	g.run = func(_ context.Context, moves []PostedMove) ([]PostedOutcome, error) {
		f.got <- moves
		if err := <-f.answer; err != nil {
			return nil, err
		}
		out := make([]PostedOutcome, len(moves))
		for i, m := range moves {
			out[i] = PostedOutcome{New: len(m.Posting.Key)} // the key's length: which answer went where
		}
		return out, nil
	}
	return g, f
}

func post(g *GroupCommit, ctx context.Context, key string) chan PostedOutcome {
	res := make(chan PostedOutcome, 1)
	go func() {
		n, err := g.InsertPosted(ctx, nil, Posting{Key: key, Entries: []Entry{{Account: "a", Amount: -1}, {Account: "b", Amount: 1}}})
		res <- PostedOutcome{New: n, Err: err}
	}()
	return res
}

// waitQueued waits until one more move entered g's queue.
func (f *fakeBatches) waitQueued(t *testing.T) {
	t.Helper()
	select {
	case <-f.queued:
	case <-time.After(5 * time.Second):
		t.Fatal("no move entered the queue")
	}
}

// Moves queued behind a batch in flight go together, at most MaxBatch at a
// time, and each request gets its own member's answer.
func TestGroupCommitBatchesWhatQueued(t *testing.T) {
	g, f := newFakeGroup(1, 3)
	first := post(g, t.Context(), "a")
	f.waitQueued(t)
	if got := <-f.got; len(got) != 1 {
		t.Fatalf("the first move went in a batch of %d", len(got))
	}
	var rest []chan PostedOutcome
	for _, k := range []string{"bb", "ccc", "dddd", "eeeee"} {
		rest = append(rest, post(g, t.Context(), k))
		f.waitQueued(t)
	}
	f.answer <- nil
	if out := <-first; out.New != 1 || out.Err != nil {
		t.Fatalf("first: %+v", out)
	}
	if got := <-f.got; len(got) != 3 || got[0].Posting.Key != "bb" || got[1].Posting.Key != "ccc" || got[2].Posting.Key != "dddd" {
		t.Fatalf("second batch: %d moves (%v)", len(got), got)
	}
	f.answer <- nil
	if got := <-f.got; len(got) != 1 {
		t.Fatalf("third batch: %d moves, want the one left", len(got))
	}
	f.answer <- nil
	for i, r := range rest {
		if out := <-r; out.New != i+2 || out.Err != nil {
			t.Errorf("move %d: %+v, want its own answer %d", i, out, i+2)
		}
	}
}

// A request that gives up before any batch took its move writes nothing;
// one whose move was taken waits for what the batch did, whatever its
// deadline: a move that committed is never answered as a failure.
func TestGroupCommitAnswersWhatTheBatchDid(t *testing.T) {
	g, f := newFakeGroup(1, 8)
	held := post(g, t.Context(), "held")
	f.waitQueued(t)
	<-f.got
	gone, cancelGone := context.WithCancel(t.Context())
	abandoned := post(g, gone, "gone")
	f.waitQueued(t)
	cancelGone()
	if out := <-abandoned; !errors.Is(out.Err, context.Canceled) {
		t.Fatalf("a move given up before its batch: %+v", out)
	}
	late, cancelLate := context.WithCancel(t.Context())
	f.answer <- nil
	<-held
	taken := post(g, late, "taken")
	f.waitQueued(t)
	if got := <-f.got; len(got) != 1 || got[0].Posting.Key != "taken" {
		t.Fatalf("the next batch: %v, want only the move still wanted", got)
	}
	cancelLate()
	// A deadlock victim wrote nothing: the batch runs once more.
	f.answer <- &pq.Error{Code: "40P01"}
	if got := <-f.got; len(got) != 1 {
		t.Fatalf("the retried batch: %v", got)
	}
	f.answer <- nil
	if out := <-taken; out.Err != nil || out.New != len("taken") {
		t.Fatalf("a taken move whose request gave up: %+v, want the batch's answer", out)
	}
}
