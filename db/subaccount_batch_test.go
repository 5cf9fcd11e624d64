package db_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// One sub-account batch, one commit, each member judged alone in order and
// reading what the members before it wrote: a debit past the daily limit
// once an earlier member's debit counts, a repeat of an earlier member's
// reference, and another account's sub-account are answered to their own
// requests and write nothing, while the others commit.
func TestSubaccountBatchJudgesEachMoveAlone(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct, other := newAccount(t, sharedDB, "Loja Lote"), newAccount(t, sharedDB, "Loja Vizinha")
	fund(t, sharedDB, acct.ID, 5000)
	sub, theirs := newSubaccount(t, acct.ID, 1000), newSubaccount(t, other.ID, 1000)
	var moves []db.SubaccountMove
	var ids []string
	add := func(s string, out bool, amount money.Cents, ref string) {
		m, id := subMoveOf(acct.ID, s, out, amount, ref)
		moves, ids = append(moves, m), append(ids, id)
	}
	add(sub, false, 1000, "entra")
	add(sub, true, 600, "sai-1")
	add(sub, true, 500, "sai-2") // 600 + 500 > 1000 a day
	add(sub, true, 600, "sai-1") // the second member's reference
	add(theirs, false, 10, "alheia")
	add(sub, true, 300, "sai-3") // 600 + 300 fits
	out, err := db.MoveSubaccounts(ctx, sharedDB, moves)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 1, 5} {
		if o := out[i]; o.Err != nil || o.Refused || o.Look.Earlier != "" || o.Outcome.Err != nil || o.Outcome.New != 1 {
			t.Fatalf("member %d: %+v", i, o)
		}
	}
	if o := out[2]; !o.Refused || o.Look.SpentDay[0] != 600 || !errors.Is(o.Look.Subs[0].Limits().Check(500, o.Look.SpentDay[0], 0), domain.ErrInvalid) {
		t.Fatalf("500 past the limit after the batch's 600: %+v", o)
	}
	if o := out[3]; o.Look.Earlier != ids[1] {
		t.Fatalf("the repeat of sai-1 read %+v, want its move %s", o.Look, ids[1])
	}
	if o := out[4]; !o.Refused || !errors.Is(o.Err, domain.ErrNotFound) {
		t.Fatalf("another account's sub-account: %+v", o)
	}
	for i, want := range []int{1, 1, 0, 0, 0, 1} {
		var n int
		if err := sharedDB.GetContext(ctx, &n, `SELECT count(*) FROM transactions WHERE id = $1`, ids[i]); err != nil || n != want {
			t.Fatalf("member %d: %d records (%v), want %d", i, n, err, want)
		}
	}
	if got := availableOf(t, sub); got != 100 {
		t.Fatalf("the sub-account holds %d, want 1000 - 600 - 300", got)
	}
	if got := availableOf(t, theirs); got != 0 {
		t.Fatalf("the other account's sub-account holds %d", got)
	}
}

// Twenty debits of 100 under a daily limit of 1000 at once: the first goes
// alone and is held; the other nineteen queue behind it and go as one
// batch. Exactly ten pass, whatever batch they went in.
func TestSubaccountGroupKeepsTheLimitAcrossBatches(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Limite")
	fund(t, sharedDB, acct.ID, 5000)
	sub := newSubaccount(t, acct.ID, 1000)
	if _, _, out, _, err := subMove(t, acct.ID, sub, false, 3000, "fundo"); err != nil || out.Err != nil {
		t.Fatalf("funding: %+v %v", out, err)
	}
	g := &db.SubaccountGroup{DB: sharedDB, Lanes: 1}
	release, sizes := make(chan struct{}), make(chan int, 4)
	queued := db.HoldSubaccountBatches(g, release, sizes, 32)
	const n = 20
	var wg sync.WaitGroup
	results := make([]db.SubaccountOutcome, n)
	errs := make([]error, n)
	move := func(i int) {
		m, _ := subMoveOf(acct.ID, sub, true, 100, domain.NewID("saque-"))
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = g.Move(ctx, m)
		}()
	}
	wait := func(ch <-chan struct{}) {
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatal("no move queued")
		}
	}
	move(0)
	wait(queued)
	select {
	case size := <-sizes:
		if size != 1 {
			t.Fatalf("the first batch held %d moves", size)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the first move was not sent")
	}
	for i := 1; i < n; i++ {
		move(i)
		wait(queued)
	}
	close(release)
	wg.Wait()
	if second := <-sizes; second != n-1 {
		t.Fatalf("the second batch held %d moves, want %d", second, n-1)
	}
	passed := 0
	for i, o := range results {
		switch {
		case errs[i] != nil:
			t.Fatalf("move %d: %v", i, errs[i])
		case o.Refused:
		case o.Outcome.Err != nil || o.Outcome.New != 1:
			t.Fatalf("move %d: %+v", i, o)
		default:
			passed++
		}
	}
	if passed != 10 || availableOf(t, sub) != 2000 {
		t.Fatalf("%d debits passed and the sub-account holds %d, want 10 and 2000", passed, availableOf(t, sub))
	}
}

// A sub-account batch cut between its members (its backend terminated, as
// a PostgreSQL restart does, after two members wrote and while the third
// waits) commits none of them. The pool sends the statement again, which
// posts each move once; the requests' retries (same externalReference)
// find each move and post nothing.
func TestSubaccountBatchCutPostsNoMember(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Corte Filial")
	fund(t, sharedDB, acct.ID, 1000)
	sub := newSubaccount(t, acct.ID, 1_000_000)
	moves := make([]db.SubaccountMove, 4)
	ids := make([]string, 4)
	for i := range moves {
		moves[i], ids[i] = subMoveOf(acct.ID, sub, false, money.Cents(100*(i+1)), fmt.Sprintf("corte-%d", i))
	}
	stored := func() (records, postings int) {
		t.Helper()
		if err := sharedDB.QueryRowxContext(ctx, `SELECT (SELECT count(*) FROM transactions WHERE id = ANY($1)),
			(SELECT count(*) FROM ledger_transactions WHERE transaction_id = ANY($1))`, ids).Scan(&records, &postings); err != nil {
			t.Fatal(err)
		}
		return records, postings
	}

	// Another transaction holds the third member's record, uncommitted:
	// the batch takes its locks, writes the first two members and waits
	// at the third's insert.
	blocker, blockerPID := holdRecord(t, moves[2].Move.Records[0])
	type answer struct {
		out []db.SubaccountOutcome
		err error
	}
	cut := make(chan answer, 1)
	go func() {
		out, err := db.MoveSubaccounts(context.Background(), sharedDB, moves)
		cut <- answer{out, err}
	}()
	batchPID := blockedBy(t, blockerPID, 0, "subaccount_move_batch")
	terminate(t, batchPID)
	resent := blockedBy(t, blockerPID, batchPID, "subaccount_move_batch") // database/sql sends the statement again
	if records, postings := stored(); records != 0 || postings != 0 || availableOf(t, sub) != 0 {
		t.Fatalf("after the cut: %d records, %d postings, the sub-account holds %d; want nothing", records, postings, availableOf(t, sub))
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
			if o.Err != nil || o.Refused || o.Outcome.Err != nil || o.Outcome.New != 1 {
				t.Fatalf("member %d of the batch sent again: %+v", i, o)
			}
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the batch sent again never answered")
	}
	out, err := db.MoveSubaccounts(ctx, sharedDB, moves)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range out {
		if o.Look.Earlier != ids[i] {
			t.Fatalf("retry of member %d found %+v, want its move %s", i, o.Look, ids[i])
		}
	}
	if records, postings := stored(); records != 4 || postings != 4 || availableOf(t, sub) != 1000 || availableOf(t, acct.ID) != 0 {
		t.Fatalf("%d records, %d postings, balances %d and %d; want 4, 4, 1000 and 0", records, postings, availableOf(t, sub), availableOf(t, acct.ID))
	}
}
