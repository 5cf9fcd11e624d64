package db_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// The withdrawable money is one rule in two places: lockedPart, which the
// balance shows, and ledger_withdrawable, which ledger_post refuses debits
// by under the balance locks. Every case of the rule must come out the same
// from both.
func TestWithdrawableRuleIsOneRule(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ available, locked money.Cents }{
		{0, 0}, {1000, 0}, {1000, 300}, {1000, 1000}, {1000, 1500}, {300, 1000},
		{-500, 0}, {-500, 200}, {0, 700}, {1, 1}, {99_999_999_999, 1},
	} {
		var sqlSays money.Cents
		if err := sharedDB.GetContext(t.Context(), &sqlSays, `SELECT ledger_withdrawable($1, $2)`, c.available, c.locked); err != nil {
			t.Fatal(err)
		}
		if _, goSays := db.LockedPart(c.available, c.locked); goSays != sqlSays {
			t.Errorf("available %d, locked %d: the balance shows %d withdrawable, ledger_post allows %d", c.available, c.locked, goSays, sqlSays)
		}
	}
}

// InsertPosted writes an internal transfer's records, events and posting in
// one statement that commits on its own: all of them, or (a refused debit)
// none; a second attempt with the same records moves nothing.
func TestInsertPostedIsAllOrNothing(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	from, to := newAccount(t, sharedDB, "Loja Origem"), newAccount(t, sharedDB, "Loja Destino")
	fund(t, sharedDB, from.ID, 1000)
	now := domain.NewTime(time.Now())
	move := func(amount money.Cents) (int, error) {
		out := domain.Transaction{ID: domain.DerivedID("", "posted-out:"+from.ID+amount.String()), AccountID: from.ID,
			Type: domain.TypeInternalOut, Status: domain.StatusCompleted, Amount: amount, NetAmount: amount, CreatedAt: now}
		in := domain.Transaction{ID: domain.DerivedID("", "posted-in:"+from.ID+amount.String()), AccountID: to.ID,
			Type: domain.TypeInternalIn, Status: domain.StatusCompleted, Amount: amount, NetAmount: amount, CreatedAt: now}
		return db.InsertPosted(ctx, sharedDB, []domain.Transaction{out, in}, db.Posting{
			Key: "posted:" + out.ID, AccountID: from.ID, TransactionID: out.ID, Kind: domain.TypeInternalOut,
			Entries: []db.Entry{
				{Account: domain.AvailableLedger(from.ID), Amount: -amount},
				{Account: domain.AvailableLedger(to.ID), Amount: amount},
			},
			Withdraw: &db.Withdrawal{AccountID: from.ID, Amount: amount},
		}, db.NewEvent{AccountID: from.ID, Type: domain.EventInternalCompleted, ResourceID: out.ID, Data: map[string]any{}},
			db.NewEvent{AccountID: to.ID, Type: domain.EventInternalReceived, ResourceID: in.ID, Data: map[string]any{}})
	}
	rows := func(amount money.Cents) (n int) {
		if err := sharedDB.GetContext(ctx, &n, `SELECT (SELECT count(*) FROM transactions WHERE id IN ($1, $2))
			+ (SELECT count(*) FROM events WHERE resource_id IN ($1, $2))`,
			domain.DerivedID("", "posted-out:"+from.ID+amount.String()), domain.DerivedID("", "posted-in:"+from.ID+amount.String())); err != nil {
			t.Fatal(err)
		}
		return n
	}
	balance := func(id string) (b money.Cents) {
		if err := sharedDB.GetContext(ctx, &b, `SELECT balance FROM ledger_accounts WHERE id = $1`, domain.AvailableLedger(id)); err != nil {
			t.Fatal(err)
		}
		return b
	}

	if _, err := move(1500); !errors.Is(err, domain.ErrInsufficientBalance) {
		t.Fatalf("R$ 15.00 from R$ 10.00: err %v, want insufficient balance", err)
	}
	if n := rows(1500); n != 0 {
		t.Fatalf("a refused move left %d records or events behind", n)
	}
	if n, err := move(400); n != 2 || err != nil {
		t.Fatalf("R$ 4.00 from R$ 10.00: %d new records, err %v; want 2, nil", n, err)
	}
	if n, err := move(400); n != 0 || err != nil {
		t.Fatalf("the same move again: %d new records, err %v; want 0, nil", n, err)
	}
	if n := rows(400); n != 4 {
		t.Fatalf("the move wrote %d records and events, want 4", n)
	}
	if f, g := balance(from.ID), balance(to.ID); f != 600 || g != 400 {
		t.Fatalf("balances after one move of R$ 4.00 made twice: %d and %d, want 600 and 400", f, g)
	}
}

// A withdrawal's guard reads the locked money from the balance row
// (locked_total, kept by every posting) and the entries whose lock ended
// since the row's last look, not from every locked entry of the account.
// Through credits locked ahead and in the past, a locked debit (a refund of
// a deposit still locked) and a lock that ends while the test waits, each
// debit is judged by exactly the money its entries leave withdrawable, and
// the row's figure stays the sum of the entries locked beyond its as-of.
func TestLockedTotalIsTheLockedEntries(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a := newAccount(t, sharedDB, "Loja Travada")
	wallet := domain.AvailableLedger(a.ID)
	fund(t, sharedDB, a.ID, 1000)
	post := func(amount money.Cents, lockedFor time.Duration, withdraw bool) error {
		return postAdjustment(t, a.ID, amount, lockedFor, withdraw)
	}
	consistent := func(step string) {
		t.Helper()
		var kept, entries money.Cents
		if err := sharedDB.QueryRowxContext(ctx, `SELECT a.locked_total, COALESCE((SELECT sum(e.amount) FROM ledger_entries e
			WHERE e.ledger_account_id = a.id AND e.locked_until > a.locked_as_of), 0) FROM ledger_accounts a WHERE a.id = $1`,
			wallet).Scan(&kept, &entries); err != nil {
			t.Fatal(err)
		}
		if kept != entries {
			t.Fatalf("%s: the row keeps %d locked, its entries lock %d", step, kept, entries)
		}
	}
	refused := func(step string, amount, withdrawable money.Cents) {
		t.Helper()
		err := post(-amount, 0, true)
		if !errors.Is(err, domain.ErrInsufficientBalance) || !strings.Contains(err.Error(), withdrawable.String()+" withdrawable") {
			t.Fatalf("%s: withdrawing %d: err %v, want refused with %s withdrawable", step, amount, err, withdrawable)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	must(post(500, time.Hour, false))  // locked for an hour
	must(post(300, -time.Hour, false)) // its lock ended an hour ago: withdrawable
	consistent("after the credits")
	refused("1,800 available, 500 locked", 1301, 1300)
	must(post(-200, time.Hour, false)) // a refund of locked money
	consistent("after the locked debit")
	refused("1,600 available, 300 locked", 1301, 1300)
	must(post(-1300, 0, true))
	consistent("after the withdrawal")

	must(post(100, 300*time.Millisecond, false)) // its lock ends while the test waits
	refused("400 available, 400 locked", 100, 0)
	tick := time.NewTicker(20 * time.Millisecond) // polls until the lock has ended, within a deadline
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for err := post(-100, 0, true); err != nil; err = post(-100, 0, true) {
		if !errors.Is(err, domain.ErrInsufficientBalance) {
			t.Fatalf("withdrawing the credit whose lock ended: %v", err)
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("10 s after a lock of 300 ms, its money is still not withdrawable: %v", err)
		}
	}
	consistent("after the lock ended and its money was withdrawn")
	refused("300 available, 300 locked", 1, 0)
}
