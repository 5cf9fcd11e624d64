package db_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/internal/poll"
	"github.com/jangada/jangada/money"
)

// newSubaccount stores a live sub-account of accountID with a daily limit.
func newSubaccount(t *testing.T, accountID string, daily money.Cents) string {
	t.Helper()
	now := domain.NewTime(time.Now())
	s := subaccount.Subaccount{ID: domain.NewID("sub_"), AccountID: accountID, Name: "Filial", ExternalReference: domain.NewID("ref_"),
		PersonType: "PF", CPF: "52998224725", BirthDate: "1990-01-01", PostalCode: "01001000", CreatedAt: now,
		Status: subaccount.StatusActive, LockMode: subaccount.LockNone, Pricing: domain.SomeJSON(domain.Fees{})}
	if err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error { return db.InsertSubaccount(t.Context(), tx, s, nil) }); err != nil {
		t.Fatal(err)
	}
	if _, err := sharedDB.ExecContext(t.Context(), `UPDATE subaccounts SET limit_daily = $2 WHERE id = $1`, s.ID, daily); err != nil {
		t.Fatal(err)
	}
	return s.ID
}

// A move's reads wait for the sub-account's lock and then see what its
// holder committed: the debit that held it counts against the limit, and
// a concurrent attempt of the same move (same externalReference) is found
// after the wait. Both need reads that start after the lock, not with it.
func TestLookSubaccountMoveReadsAfterTheLock(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Filiais")
	sub := newSubaccount(t, acct.ID, 1000)
	w := subaccount.WindowAt(time.Now())
	look := func(tx *sqlx.Tx, ref string) (db.MoveLook, error) {
		return db.LookSubaccountMove(ctx, tx, acct.ID, []string{"id"}, []string{sub}, []string{sub}, ref, subaccount.TypeRemoveBalance, w)
	}

	holder, err := sharedDB.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback()
	first, err := look(holder, "saque-1")
	if err != nil || first.Earlier != "" || first.SpentDay[0] != 0 || first.Subs[0].ID != sub || *first.Subs[0].LimitDaily != 1000 {
		t.Fatalf("first look: %+v, %v", first, err)
	}
	var holderPID int
	if err := holder.GetContext(ctx, &holderPID, `SELECT pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	ref := "saque-1"
	now := domain.NewTime(time.Now())
	debit := domain.Transaction{ID: domain.NewID(""), AccountID: acct.ID, Type: subaccount.TypeRemoveBalance, Status: domain.StatusCompleted,
		Amount: 600, NetAmount: 600, ExternalReference: &ref, SubaccountID: &sub, CreatedAt: now, CompletedAt: &now}
	if _, err := db.InsertTransactions(ctx, holder, debit); err != nil {
		t.Fatal(err)
	}

	type answer struct {
		look db.MoveLook
		err  error
	}
	waiting := func(ref string) (chan answer, *sqlx.Tx) {
		tx, err := sharedDB.BeginTxx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		ch := make(chan answer, 1)
		go func() {
			l, err := look(tx, ref)
			ch <- answer{l, err}
		}()
		return ch, tx
	}
	other, otherTx := waiting("saque-2")
	defer otherTx.Rollback()
	poll.Until(t, 20*time.Second, "the second move waiting on the sub-account's lock", func() bool {
		var n int
		return sharedDB.GetContext(ctx, &n, `SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, holderPID) == nil && n == 1
	})
	if err := holder.Commit(); err != nil {
		t.Fatal(err)
	}
	a := <-other
	if a.err != nil || a.look.Earlier != "" || a.look.SpentDay[0] != 600 {
		t.Fatalf("the move that waited read %+v (err %v): want the 600 committed while it waited", a.look, a.err)
	}
	if err := a.look.Subs[0].Limits().Check(500, a.look.SpentDay[0], a.look.SpentMonth[0]); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("500 more past a daily limit of 1000 with 600 spent: %v", err)
	}

	// The same move again, while another holds the lock: found after it.
	var otherPID int
	if err := otherTx.GetContext(ctx, &otherPID, `SELECT pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	if _, err := sharedDB.ExecContext(ctx, `DELETE FROM transactions WHERE id = $1`, debit.ID); err != nil {
		t.Fatal(err)
	}
	again, againTx := waiting("saque-1")
	defer againTx.Rollback()
	poll.Until(t, 20*time.Second, "the repeat waiting on the sub-account's lock", func() bool {
		var n int
		return sharedDB.GetContext(ctx, &n, `SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, otherPID) == nil && n == 1
	})
	if _, err := db.InsertTransactions(ctx, otherTx, debit); err != nil {
		t.Fatal(err)
	}
	if err := otherTx.Commit(); err != nil {
		t.Fatal(err)
	}
	if b := <-again; b.err != nil || b.look.Earlier != debit.ID {
		t.Fatalf("the repeat read %+v (err %v): want the earlier move %s", b.look, b.err, debit.ID)
	}

	// A sub-account of another account is a 404 naming the field.
	if err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
		_, err := db.LookSubaccountMove(context.Background(), tx, newAccount(t, sharedDB, "Outra").ID, []string{"fromSubaccountId"},
			[]string{sub}, nil, "x", subaccount.TypeTransfer, w)
		return err
	}); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another account's sub-account: %v", err)
	}
}

// subMoveOf is a move of amount between the main account and sub (in: add
// balance; out: remove balance) with reference ref, as the use case makes
// it, and the record's id.
func subMoveOf(acct, sub string, out bool, amount money.Cents, ref string) (db.SubaccountMove, string) {
	typ, op, from, to := subaccount.TypeAddBalance, subaccount.OpAddBalance, acct, sub
	var debited []string
	if out {
		typ, op, from, to, debited = subaccount.TypeRemoveBalance, subaccount.OpRemoveBalance, sub, acct, []string{sub}
	}
	now := domain.NewTime(time.Now())
	rec := domain.Transaction{ID: domain.NewID(""), AccountID: acct, Type: typ, Status: domain.StatusCompleted, Amount: amount,
		NetAmount: amount, ExternalReference: &ref, SubaccountID: &sub, CreatedAt: now, CompletedAt: &now}
	move := db.PostedMove{Records: []domain.Transaction{rec}, Posting: db.Posting{Key: "subaccount:" + rec.ID, AccountID: acct,
		TransactionID: rec.ID, Kind: typ, Entries: []db.Entry{
			{Account: domain.AvailableLedger(from), Amount: -amount}, {Account: domain.AvailableLedger(to), Amount: amount}},
		Withdraw: &db.Withdrawal{AccountID: from, Amount: amount}}}
	return db.SubaccountMove{AccountID: acct, Fields: []string{"id"}, IDs: []string{sub}, Out: debited, Ref: ref, Type: typ,
		Window: subaccount.WindowAt(time.Now()), Allowed: [][]string{subaccount.ModesAllowing(op)}, Amount: amount, Move: move}, rec.ID
}

// subMove makes subMoveOf's move alone (MoveSubaccount).
func subMove(t *testing.T, acct, sub string, out bool, amount money.Cents, ref string) (db.MoveLook, bool, db.PostedOutcome, string, error) {
	t.Helper()
	m, id := subMoveOf(acct, sub, out, amount, ref)
	res, err := db.MoveSubaccount(t.Context(), sharedDB, m)
	return res.Look, res.Refused, res.Outcome, id, err
}

// A whole move in one statement: checks under the locks from the rules'
// data, nothing written when they refuse (with the figures Go words the
// refusal from), the record and posting when they pass, and a repeat of a
// reference answered with its move.
func TestMoveSubaccountChecksThenWrites(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Movimentos")
	fund(t, sharedDB, acct.ID, 5000)
	sub := newSubaccount(t, acct.ID, 1000)
	set := func(sql string) {
		if _, err := sharedDB.ExecContext(ctx, sql, sub); err != nil {
			t.Fatal(err)
		}
	}
	written := func(id string) bool {
		var n int
		if err := sharedDB.GetContext(ctx, &n, `SELECT count(*) FROM transactions WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}

	if _, refused, out, id, _ := subMove(t, acct.ID, sub, false, 1000, "entra"); refused || out.Err != nil || out.New != 1 || !written(id) {
		t.Fatalf("add 1000: refused %v, outcome %+v", refused, out)
	}
	_, refused, out, first, _ := subMove(t, acct.ID, sub, true, 600, "sai-1")
	if refused || out.Err != nil || !written(first) || availableOf(t, sub) != 400 {
		t.Fatalf("remove 600: refused %v, outcome %+v, sub holds %d", refused, out, availableOf(t, sub))
	}
	look, refused, _, id, _ := subMove(t, acct.ID, sub, true, 500, "sai-2")
	if !refused || written(id) || look.SpentDay[0] != 600 ||
		!errors.Is(look.Subs[0].Limits().Check(500, look.SpentDay[0], look.SpentMonth[0]), domain.ErrInvalid) {
		t.Fatalf("500 past the daily limit: refused %v, look %+v", refused, look)
	}
	if look, _, _, _, _ := subMove(t, acct.ID, sub, true, 600, "sai-1"); look.Earlier != first {
		t.Fatalf("the repeat of sai-1 read %+v, want its move %s", look, first)
	}

	var barred string
	for _, m := range []string{subaccount.LockNone, subaccount.LockFull, subaccount.LockWithdrawOnly, subaccount.LockDepositOnly} {
		if !subaccount.Allows(m, subaccount.OpRemoveBalance) {
			barred = m
		}
	}
	set(`UPDATE subaccounts SET lock_mode = '` + barred + `' WHERE id = $1`)
	if look, refused, _, id, _ := subMove(t, acct.ID, sub, true, 10, "sai-3"); !refused || written(id) || look.Subs[0].Permit(subaccount.OpRemoveBalance) == nil {
		t.Fatalf("a removal under lock %s: refused %v, look %+v", barred, refused, look)
	}
	set(`UPDATE subaccounts SET lock_mode = 'NONE', status = 'DISABLED' WHERE id = $1`)
	if look, refused, _, id, _ := subMove(t, acct.ID, sub, false, 10, "entra-2"); !refused || written(id) || look.Subs[0].Permit(subaccount.OpAddBalance) == nil {
		t.Fatalf("an add to a DISABLED sub-account: refused %v, look %+v", refused, look)
	}
	set(`UPDATE subaccounts SET deleted_at = now() WHERE id = $1`)
	_, _, _, _, err := subMove(t, acct.ID, sub, false, 10, "entra-3")
	if !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a deleted sub-account: %v", err)
	}
	if availableOf(t, sub) != 400 {
		t.Fatalf("after the refusals the sub-account holds %d, want 400", availableOf(t, sub))
	}
}
