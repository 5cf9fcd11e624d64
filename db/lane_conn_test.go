package db_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
)

// A lane keeps its connection from batch to batch, PostgreSQL's refusal of
// a statement included, and leaves one that died for a new one.
func TestLaneKeepsItsConnection(t *testing.T) {
	ctx := t.Context()
	lanes := db.NewLaneSet(sharedDB, 1)
	first, err := lanes.Run(ctx, `SELECT 1`)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := lanes.Run(ctx, `SELECT 1`); err != nil || again != first {
		t.Fatalf("second batch on backend %d (%v), want the lane's %d", again, err, first)
	}
	if _, err := lanes.Run(ctx, `SELECT 1/0`); err == nil {
		t.Fatal("1/0 answered")
	}
	if again, err := lanes.Run(ctx, `SELECT 1`); err != nil || again != first {
		t.Fatalf("after a refused statement: backend %d (%v), want the lane's %d", again, err, first)
	}

	var ended bool // pg_terminate_backend with a timeout waits for the end
	if err := sharedDB.GetContext(ctx, &ended, `SELECT pg_terminate_backend($1, 10000)`, first); err != nil || !ended {
		t.Fatalf("backend %d not ended: %v", first, err)
	}
	// The lane finds the connection dead before its statement leaves
	// (lib/pq reads the backend's goodbye as driver.ErrBadConn) and runs
	// the batch again on a new one: the batch is answered, not failed.
	next, err := lanes.Run(ctx, `SELECT 1`)
	if err != nil || next == first || next == 0 {
		t.Fatalf("after its backend ended the lane answered on backend %d (%v), want a new one", next, err)
	}
}

// Close ends the connections of its pool's lanes.
func TestCloseEndsTheLanesConnections(t *testing.T) {
	ctx := t.Context()
	d, err := db.Open(ctx, dbtest.ServerURL())
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.NewLaneSet(d, 2).Run(ctx, `SELECT 1`)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(d); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
}

// waitGone waits until backend pid has ended: a client's goodbye ends its
// backend after the client has left, so this asks until it has.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		var n int
		if err := sharedDB.GetContext(t.Context(), &n, `SELECT count(*) FROM pg_stat_activity WHERE pid = $1`, pid); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("backend %d still there", pid)
		}
	}
}

// A group's batches run on its lane's own backend; when that backend ends
// between two batches (PostgreSQL restarted, an operator's terminate), the
// next move is still posted, once, on a new one.
func TestGroupCommitLaneOutlivesItsBackend(t *testing.T) {
	ctx := t.Context()
	a, b := newAccount(t, sharedDB, "Loja Pista"), newAccount(t, sharedDB, "Loja Destino")
	fund(t, sharedDB, a.ID, 1000)
	g := &db.GroupCommit{DB: sharedDB}
	post := func(name string) {
		t.Helper()
		m := internalMove(a.ID, b.ID, a.ID+name, 100, nil)
		if n, err := g.InsertPosted(ctx, m.Records, m.Posting, m.Events...); n != 2 || err != nil {
			t.Fatalf("move %s: %d new, %v", name, n, err)
		}
	}
	post("before")
	first, _, err := db.LanePrepared(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	var ended bool
	if err := sharedDB.GetContext(ctx, &ended, `SELECT pg_terminate_backend($1, 10000)`, first); err != nil || !ended {
		t.Fatalf("backend %d not ended: %v", first, err)
	}
	post("after")
	if next, _, err := db.LanePrepared(ctx, g); err != nil || next == first {
		t.Fatalf("the lane runs on backend %d (%v) after %d ended", next, err, first)
	}
	if got := availableOf(t, a.ID); got != 800 {
		t.Fatalf("sender's balance %d, want 800: each move posted once", got)
	}
}

// Warm writes nothing, and leaves each group's lane on a connection with
// its batch statements prepared (the functions they call compiled with
// them), which the next batch takes.
func TestWarmPreparesTheLanes(t *testing.T) {
	ctx := t.Context()
	d := dbtest.New(t)
	ledger, subs := &db.GroupCommit{DB: d}, &db.SubaccountGroup{DB: d}
	for name, warm := range map[string]func(context.Context) error{"ledger": ledger.Warm, "sub-accounts": subs.Warm} {
		if err := warm(ctx); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	var written int
	if err := d.GetContext(ctx, &written, `SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM transactions)
		+ (SELECT count(*) FROM ledger_transactions) + (SELECT count(*) FROM ledger_entries)`); err != nil {
		t.Fatal(err)
	}
	if written != 0 {
		t.Fatalf("warming wrote %d rows", written)
	}
	for name, c := range map[string]struct {
		g    any
		want []string
	}{
		"ledger":       {ledger, []string{"ledger_post_batch_fast(", "ledger_post_batch($1)"}},
		"sub-accounts": {subs, []string{"subaccount_move_batch_fast(", "subaccount_move_batch($1"}},
	} {
		_, got, err := db.LanePrepared(ctx, c.g)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, w) }) {
				t.Errorf("%s: the lane's connection has %q prepared, want %s among them", name, got, w)
			}
		}
	}

	a, b := newAccount(t, d, "Loja Morna"), newAccount(t, d, "Loja Quente")
	fund(t, d, a.ID, 100)
	warmed, _, err := db.LanePrepared(ctx, ledger)
	if err != nil {
		t.Fatal(err)
	}
	m := internalMove(a.ID, b.ID, a.ID+"first", 100, nil)
	if n, err := ledger.InsertPosted(ctx, m.Records, m.Posting, m.Events...); n != 2 || err != nil {
		t.Fatalf("first move: %d new, %v", n, err)
	}
	if pid, _, err := db.LanePrepared(ctx, ledger); err != nil || pid != warmed {
		t.Fatalf("the first move left the lane on backend %d (%v), want the warmed %d", pid, err, warmed)
	}
}
