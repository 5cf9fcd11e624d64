package db_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// internalMove is an internal transfer's writes (both records, both events,
// the posting that debits withdrawable money), named by name.
func internalMove(from, to, name string, amount money.Cents, ref *string) db.PostedMove {
	now := domain.NewTime(time.Now())
	out := domain.Transaction{ID: domain.DerivedID("", "gc-out:"+name), AccountID: from, Type: domain.TypeInternalOut,
		Status: domain.StatusCompleted, Amount: amount, NetAmount: amount, ExternalReference: ref, CreatedAt: now, CompletedAt: &now,
		Details: domain.SomeJSON(domain.Details{CounterpartyID: to, RecipientName: "Maria"})}
	in := domain.Transaction{ID: domain.DerivedID("", "gc-in:"+name), AccountID: to, Type: domain.TypeInternalIn,
		Status: domain.StatusCompleted, Amount: amount, NetAmount: amount, CreatedAt: now, CompletedAt: &now}
	return db.PostedMove{
		Records: []domain.Transaction{out, in},
		Posting: db.Posting{Key: "gc:" + out.ID, AccountID: from, TransactionID: out.ID, Kind: domain.TypeInternalOut,
			Entries: []db.Entry{
				{Account: domain.AvailableLedger(from), Amount: -amount},
				{Account: domain.AvailableLedger(to), Amount: amount},
			},
			Withdraw: &db.Withdrawal{AccountID: from, Amount: amount}},
		Events: []db.NewEvent{
			{AccountID: from, Type: domain.EventInternalCompleted, ResourceID: out.ID, Data: map[string]any{"id": out.ID}},
			{AccountID: to, Type: domain.EventInternalReceived, ResourceID: in.ID, Data: map[string]any{"id": in.ID}},
		},
	}
}

func availableOf(t *testing.T, accountID string) (b money.Cents) {
	t.Helper()
	if err := sharedDB.GetContext(t.Context(), &b, `SELECT balance FROM ledger_accounts WHERE id = $1`, domain.AvailableLedger(accountID)); err != nil {
		t.Fatal(err)
	}
	return b
}

// One batch, one commit, each member judged alone: a debit beyond what is
// left after the members before it, an externalReference already taken by
// another member and a retry of a member are answered to their own
// requests and write nothing, while the others commit with their records,
// events and postings.
func TestGroupCommitJudgesEachMoveAlone(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, b, c := newAccount(t, sharedDB, "Loja A"), newAccount(t, sharedDB, "Loja B"), newAccount(t, sharedDB, "Loja C")
	fund(t, sharedDB, a.ID, 1000)
	fund(t, sharedDB, c.ID, 500)
	ref := "pedido-1"
	moves := []db.PostedMove{
		internalMove(a.ID, b.ID, a.ID+"first", 600, &ref),
		internalMove(a.ID, b.ID, a.ID+"second", 600, nil),    // 400 left: refused
		internalMove(a.ID, b.ID, a.ID+"same-ref", 100, &ref), // the first's reference
		internalMove(a.ID, b.ID, a.ID+"first", 600, &ref),    // the first again
		internalMove(c.ID, b.ID, c.ID+"third", 250, nil),
		internalMove(a.ID, c.ID, a.ID+"fourth", 400, nil), // exactly what is left
	}
	out, err := db.PostBatch(ctx, sharedDB, moves)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		n   int
		err error
	}{{2, nil}, {0, domain.ErrInsufficientBalance}, {0, domain.ErrInvalid}, {0, nil}, {2, nil}, {2, nil}}
	for i, w := range want {
		if out[i].New != w.n || !errors.Is(out[i].Err, w.err) || (w.err == nil && out[i].Err != nil) {
			t.Errorf("member %d: %d new, err %v; want %d, %v", i, out[i].New, out[i].Err, w.n, w.err)
		}
	}
	for id, bal := range map[string]money.Cents{a.ID: 0, b.ID: 850, c.ID: 650} {
		if got := availableOf(t, id); got != bal {
			t.Errorf("balance of %s: %d, want %d", id, got, bal)
		}
	}
	stored, err := db.GetTransaction(ctx, sharedDB, a.ID, moves[0].Records[0].ID, domain.TypeInternalOut)
	if err != nil || stored.Details.V.RecipientName != "Maria" || stored.ExternalReference == nil || *stored.ExternalReference != ref {
		t.Fatalf("the first move's record reads back as %+v (err %v)", stored, err)
	}
	for i, written := range []bool{true, false, false, true, true, true} {
		var records, events, postings int
		m := moves[i]
		if err := sharedDB.QueryRowxContext(ctx, `SELECT (SELECT count(*) FROM transactions WHERE id = ANY($1)),
			(SELECT count(*) FROM events WHERE resource_id = ANY($1)),
			(SELECT count(*) FROM ledger_transactions WHERE idempotency_key = $2)`,
			[]string{m.Records[0].ID, m.Records[1].ID}, m.Posting.Key).Scan(&records, &events, &postings); err != nil {
			t.Fatal(err)
		}
		if written && (records != 2 || events != 2 || postings != 1) || !written && (records+events+postings != 0) {
			t.Errorf("member %d: %d records, %d events, %d postings (written: %v)", i, records, events, postings, written)
		}
	}
}

// Moves that arrive while a batch is in flight share the next one; two
// processes' groups moving money both ways between the same accounts at
// once neither deadlock nor lose a centavo.
func TestGroupCommitGathersAndNeverDeadlocks(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, b := newAccount(t, sharedDB, "Loja Ida"), newAccount(t, sharedDB, "Loja Volta")
	fund(t, sharedDB, a.ID, 100_000)
	fund(t, sharedDB, b.ID, 100_000)
	release, sizes := make(chan struct{}), make(chan int, 100)
	held := &db.GroupCommit{DB: sharedDB, Lanes: 1}
	db.HoldBatches(held, release, sizes)
	other := &db.GroupCommit{DB: sharedDB}

	const n = 40
	queued := db.SignalQueued(held, n)
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			m := internalMove(a.ID, b.ID, a.ID+"ida"+money.Cents(i).String(), money.Cents(100+i), nil)
			_, err := held.InsertPosted(ctx, m.Records, m.Posting, m.Events...)
			errs <- err
		}()
		go func() {
			defer wg.Done()
			m := internalMove(b.ID, a.ID, b.ID+"volta"+money.Cents(i).String(), money.Cents(50+i), nil)
			_, err := other.InsertPosted(ctx, m.Records, m.Posting, m.Events...)
			errs <- err
		}()
	}
	// The held group's first batch waits until every other move of it has
	// queued behind it: the next batch must take them together.
	first := <-sizes
	for i := range n {
		select {
		case <-queued:
		case <-time.After(20 * time.Second):
			t.Fatalf("%d of %d moves queued", i, n)
		}
	}
	if q := db.Queued(held); q != n-first {
		t.Fatalf("%d moves queued behind the first batch of %d, want %d", q, first, n-first)
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if next := <-sizes; next != min(db.DefaultMaxBatch, n-first) {
		t.Errorf("the batch after the first took %d of the %d queued moves, want %d", next, n-first, min(db.DefaultMaxBatch, n-first))
	}
	var out, in money.Cents
	for i := range n {
		out += money.Cents(100 + i)
		in += money.Cents(50 + i)
	}
	if ga, gb := availableOf(t, a.ID), availableOf(t, b.ID); ga != 100_000-out+in || gb != 100_000+out-in {
		t.Fatalf("balances %d and %d, want %d and %d", ga, gb, 100_000-out+in, 100_000+out-in)
	}
}
