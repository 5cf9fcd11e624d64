package db_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/money"
)

// Two processes' batches may carry the same moves at once (a request
// retried against another API process while its first attempt queues).
// The set path writes records and events before it takes the balance
// rows, so each batch can hold a record the other needs: whichever way
// PostgreSQL orders them (one waits for the other's commit, or one is a
// deadlock victim and goes member by member), every move is stored and
// posted exactly once and exactly one of the two answers says it is new.
func TestBatchesRacingOnTheSameMovesPostEachOnce(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, b := newAccount(t, sharedDB, "Loja Corrida"), newAccount(t, sharedDB, "Loja Chegada")
	fund(t, sharedDB, a.ID, 1_000_000)
	fund(t, sharedDB, b.ID, 1_000_000)
	const rounds, size = 12, 4
	var moved money.Cents
	for r := range rounds {
		moves := make([]db.PostedMove, size)
		for i := range moves {
			from, to := a.ID, b.ID
			if i%2 == 1 {
				from, to = b.ID, a.ID
			}
			amount := money.Cents(100*(r+1) + i)
			if i%2 == 0 {
				moved += amount
			} else {
				moved -= amount
			}
			moves[i] = internalMove(from, to, fmt.Sprintf("%s-race-%d-%d", a.ID, r, i), amount, nil)
		}
		reversed := make([]db.PostedMove, size)
		for i := range moves {
			reversed[size-1-i] = moves[i]
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		outs := make([][]db.PostedOutcome, 2)
		errs := make([]error, 2)
		for w, batch := range [][]db.PostedMove{moves, reversed} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				outs[w], errs[w] = db.PostBatch(ctx, sharedDB, batch)
			}()
		}
		close(start)
		wg.Wait()
		for w := range errs {
			if errs[w] != nil {
				t.Fatalf("round %d, batch %d: %v", r, w, errs[w])
			}
		}
		for i := range moves {
			first, second := outs[0][i], outs[1][size-1-i]
			if first.Err != nil || second.Err != nil {
				t.Fatalf("round %d, move %d: refused (%v, %v)", r, i, first.Err, second.Err)
			}
			if (first.New == 0) == (second.New == 0) || first.New+second.New != 2 {
				t.Fatalf("round %d, move %d: answers say %d and %d new records, want 2 in exactly one", r, i, first.New, second.New)
			}
		}
		assertMoves(t, moves, true)
	}
	if ga, gb := availableOf(t, a.ID), availableOf(t, b.ID); ga != 1_000_000-moved || gb != 1_000_000+moved {
		t.Fatalf("balances %d and %d, want %d and %d", ga, gb, 1_000_000-moved, 1_000_000+moved)
	}
}
