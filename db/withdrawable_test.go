package db_test

import (
	"errors"
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
