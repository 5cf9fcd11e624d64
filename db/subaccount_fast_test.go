package db_test

import (
	"errors"
	"testing"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/money"
)

// A batch no rule can refuse goes through the fast path in one statement:
// every member posted, the balances moved by the batch's sum, and its
// debits counted by the next move's limits.
func TestSubaccountFastPathPostsABatchNoRuleRefuses(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Rápida")
	fund(t, sharedDB, acct.ID, 5000)
	sub := newSubaccount(t, acct.ID, 1000)
	if _, refused, out, _, err := subMove(t, acct.ID, sub, false, 1000, "fundo"); err != nil || refused || out.Err != nil {
		t.Fatalf("fund the sub-account: %v %v %+v", err, refused, out)
	}
	var moves []db.SubaccountMove
	var ids []string
	for _, m := range []struct {
		out    bool
		amount money.Cents
		ref    string
	}{{false, 300, "entra"}, {true, 400, "sai-1"}, {true, 500, "sai-2"}} {
		mv, id := subMoveOf(acct.ID, sub, m.out, m.amount, m.ref)
		moves, ids = append(moves, mv), append(ids, id)
	}
	out, err := db.MoveSubaccountsFast(ctx, sharedDB, moves)
	if err != nil {
		t.Fatalf("a batch no rule refuses was handed back: %v", err)
	}
	for i, o := range out {
		if o.Err != nil || o.Refused || o.Outcome.Err != nil || o.Outcome.New != 1 {
			t.Fatalf("member %d: %+v", i, o)
		}
		if !recordStored(t, ids[i]) {
			t.Fatalf("member %d: no record", i)
		}
	}
	if got := availableOf(t, sub); got != 1000+300-400-500 {
		t.Fatalf("the sub-account holds %d", got)
	}
	if got := availableOf(t, acct.ID); got != 5000-1000-300+400+500 {
		t.Fatalf("the main account holds %d", got)
	}
	// 900 of the day's 1000 are spent: the batch's debits count.
	if look, refused, _, _, err := subMove(t, acct.ID, sub, true, 200, "sai-3"); err != nil || !refused || look.SpentDay[0] != 900 {
		t.Fatalf("200 after the batch's 900: refused %v, look %+v (%v)", refused, look, err)
	}
}

// A batch one of whose members could be refused, or was sent before, is
// handed back having written nothing; the member-by-member path then
// answers each move alone.
func TestSubaccountFastPathHandsBackWhatARuleCouldRefuse(t *testing.T) {
	t.Parallel()
	type move struct {
		out    bool
		amount money.Cents
		ref    string
		theirs bool
	}
	for name, c := range map[string]struct {
		fund  money.Cents // the main account's
		setup string      // on the sub-account, $1
		moves []move
	}{
		"the batch's debits together pass the daily limit": {5000, "", []move{{true, 600, "a", false}, {true, 500, "b", false}}},
		"a debit past the per-transaction limit":           {5000, "UPDATE subaccounts SET limit_per_transaction = 50 WHERE id = $1", []move{{false, 10, "a", false}, {true, 60, "b", false}}},
		"the batch's debits together pass the monthly limit": {5000, "UPDATE subaccounts SET limit_daily = NULL, limit_monthly = 700 WHERE id = $1",
			[]move{{true, 400, "a", false}, {true, 400, "b", false}}},
		"a disabled sub-account":                 {5000, "UPDATE subaccounts SET status = 'DISABLED' WHERE id = $1", []move{{false, 10, "a", false}, {false, 10, "b", false}}},
		"a sub-account locked against the op":    {5000, "UPDATE subaccounts SET lock_mode = 'full' WHERE id = $1", []move{{false, 10, "a", false}, {false, 10, "b", false}}},
		"another account's sub-account":          {5000, "", []move{{false, 10, "a", false}, {false, 10, "b", true}}},
		"a reference already used":               {5000, "", []move{{false, 10, "fundo", false}, {false, 10, "b", false}}},
		"a reference repeated within the batch":  {5000, "", []move{{false, 10, "a", false}, {false, 10, "a", false}}},
		"adds the main account cannot cover all": {1060, "", []move{{false, 30, "a", false}, {false, 40, "b", false}}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			acct := newAccount(t, sharedDB, "Loja Devolve")
			fund(t, sharedDB, acct.ID, c.fund)
			sub, theirs := newSubaccount(t, acct.ID, 1000), newSubaccount(t, newAccount(t, sharedDB, "Loja Alheia").ID, 1000)
			if _, refused, out, _, err := subMove(t, acct.ID, sub, false, 1000, "fundo"); err != nil || refused || out.Err != nil {
				t.Fatalf("fund the sub-account: %v %v %+v", err, refused, out)
			}
			if c.setup != "" {
				if _, err := sharedDB.ExecContext(ctx, c.setup, sub); err != nil {
					t.Fatal(err)
				}
			}
			var moves []db.SubaccountMove
			var ids []string
			for _, m := range c.moves {
				s := sub
				if m.theirs {
					s = theirs
				}
				mv, id := subMoveOf(acct.ID, s, m.out, m.amount, m.ref)
				moves, ids = append(moves, mv), append(ids, id)
			}
			if _, err := db.MoveSubaccountsFast(ctx, sharedDB, moves); !errors.Is(err, db.ErrDeclined) {
				t.Fatalf("the fast path answered %v, want it handed back", err)
			}
			for i, id := range ids {
				if recordStored(t, id) {
					t.Fatalf("member %d written by a batch handed back", i)
				}
			}
			if got := availableOf(t, sub); got != 1000 {
				t.Fatalf("the sub-account holds %d, want 1000: nothing moved", got)
			}
			out, err := db.MoveSubaccounts(ctx, sharedDB, moves)
			if err != nil {
				t.Fatal(err)
			}
			judged := 0
			for _, o := range out {
				if o.Refused || o.Look.Earlier != "" || o.Err != nil || o.Outcome.Err != nil || o.Outcome.New == 1 {
					judged++
				}
			}
			if judged != len(moves) {
				t.Fatalf("the member-by-member path answered %d of %d: %+v", judged, len(moves), out)
			}
		})
	}
}

// recordStored tells whether the record id was written.
func recordStored(t *testing.T, id string) bool {
	t.Helper()
	var n int
	if err := sharedDB.GetContext(t.Context(), &n, `SELECT count(*) FROM transactions WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return n == 1
}
