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
