package db_test

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/poll"
	"github.com/jangada/jangada/money"
)

// A batch cut between its members (its connection terminated, as a
// PostgreSQL restart or a crash of the server process does, after two
// members wrote and while the third waits) commits none of them: every
// member is posted once or not at all. The batch sent again posts each
// move once, and the requests' retries find each move and post nothing.
func TestGroupCommitBatchCutPostsNoMember(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, b := newAccount(t, sharedDB, "Loja Corte"), newAccount(t, sharedDB, "Loja Destino")
	fund(t, sharedDB, a.ID, 1000)
	moves := make([]db.PostedMove, 4)
	for i := range moves {
		moves[i] = internalMove(a.ID, b.ID, a.ID+"cut"+money.Cents(i).String(), money.Cents(100*(i+1)), nil)
	}

	// Another transaction holds the third member's record, uncommitted:
	// the batch locks its balance rows, writes the first two members and
	// waits at the third's insert.
	blocker, blockerPID := holdRecord(t, moves[2].Records[0])

	type answer struct {
		out []db.PostedOutcome
		err error
	}
	cut := make(chan answer, 1)
	g := &db.GroupCommit{DB: sharedDB}
	go func() {
		out, err := db.LanePost(context.Background(), g, moves)
		cut <- answer{out, err}
	}()
	// pg_blocking_pids says the batch waits on the blocker: members run in
	// order and only the third's record conflicts with the blocker's, so it
	// has passed the balance locks and written the first two members.
	waiter := func(not int) int { return blockedBy(t, blockerPID, not, "ledger_post_batch") }
	batchPID := waiter(0)
	terminate(t, batchPID)
	// The driver reports the terminated connection as a bad one, and the
	// group's lane sends the statement again on a new connection: the whole
	// batch, which waits at the third member again. Nothing of the cut
	// attempt is there.
	resent := waiter(batchPID)
	assertMoves(t, moves, false)
	if got := availableOf(t, a.ID); got != 1000 {
		t.Fatalf("after the cut batch %s holds %d, want 1000", a.ID, got)
	}
	if err := blocker.Rollback(); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-cut:
		if got.err != nil {
			t.Fatalf("the batch sent again (backend %d) failed: %v", resent, got.err)
		}
		for i, o := range got.out {
			if o.Err != nil || o.New != 2 {
				t.Fatalf("member %d of the batch sent again: %d new, err %v", i, o.New, o.Err)
			}
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the batch sent again never answered")
	}
	assertMoves(t, moves, true)

	// The requests' own retries (their answer lost) find every move and
	// post nothing.
	out, err := db.PostBatch(ctx, sharedDB, moves)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range out {
		if o.Err != nil || o.New != 0 {
			t.Fatalf("retry of member %d: %d new, err %v; want 0", i, o.New, o.Err)
		}
	}
	assertMoves(t, moves, true)
	if ga, gb := availableOf(t, a.ID), availableOf(t, b.ID); ga != 0 || gb != 1000 {
		t.Fatalf("balances %d and %d, want 0 and 1000", ga, gb)
	}
}

// holdRecord inserts rec in a transaction left open (rolled back at the
// test's end), so that a statement inserting the same record waits for it,
// and returns that transaction with its backend's pid.
func holdRecord(t *testing.T, rec domain.Transaction) (*sqlx.Tx, int) {
	t.Helper()
	blocker, err := sharedDB.BeginTxx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { blocker.Rollback() })
	if _, err := db.InsertTransactions(t.Context(), blocker, rec); err != nil {
		t.Fatal(err)
	}
	var pid int
	if err := blocker.GetContext(t.Context(), &pid, `SELECT pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	return blocker, pid
}

// blockedBy waits until a backend other than not, running a statement that
// names fn, waits on the backend blockerPID, and returns its pid.
func blockedBy(t *testing.T, blockerPID, not int, fn string) (pid int) {
	t.Helper()
	poll.Until(t, 20*time.Second, "a "+fn+" statement waiting on the held record", func() bool {
		return sharedDB.GetContext(t.Context(), &pid, `SELECT coalesce(max(pid), 0) FROM pg_stat_activity
			WHERE $1 = ANY(pg_blocking_pids(pid)) AND query LIKE '%' || $3 || '%' AND pid <> $2`, blockerPID, not, fn) == nil && pid != 0
	})
	return pid
}

// terminate ends the backend pid, as a crash of the server process does.
func terminate(t *testing.T, pid int) {
	t.Helper()
	if _, err := sharedDB.ExecContext(t.Context(), `SELECT pg_terminate_backend($1)`, pid); err != nil {
		t.Fatal(err)
	}
}

// assertMoves checks that each move's two records, two events and one
// posting are all stored (written) or none is.
func assertMoves(t *testing.T, moves []db.PostedMove, written bool) {
	t.Helper()
	for i, m := range moves {
		var records, events, postings int
		if err := sharedDB.QueryRowxContext(t.Context(), `SELECT (SELECT count(*) FROM transactions WHERE id = ANY($1)),
			(SELECT count(*) FROM events WHERE resource_id = ANY($1)),
			(SELECT count(*) FROM ledger_transactions WHERE idempotency_key = $2)`,
			[]string{m.Records[0].ID, m.Records[1].ID}, m.Posting.Key).Scan(&records, &events, &postings); err != nil {
			t.Fatal(err)
		}
		if written && (records != 2 || events != 2 || postings != 1) || !written && records+events+postings != 0 {
			t.Errorf("member %d: %d records, %d events, %d postings (written: %v)", i, records, events, postings, written)
		}
	}
}
