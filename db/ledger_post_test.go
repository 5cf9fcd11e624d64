package db_test

import (
	"errors"
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// A debit that waited for an account's lock must judge the account by
// what was committed while it waited. Here a credit of R$ 5.00, locked for
// 24 h, commits while a withdrawal of R$ 12.00 waits: afterwards R$ 15.00
// are available but only R$ 10.00 withdrawable, so the withdrawal is
// refused. Had ledger_post read the locked money with the snapshot it had
// before the lock was granted (one statement for lock and read), it would
// have seen the new balance without the new lock, and let it through.
func TestWithdrawalSeesLockedMoneyCommittedWhileItWaited(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a := newAccount(t, sharedDB, "Loja Espera")
	fund(t, sharedDB, a.ID, 1000)
	wallet := domain.AvailableLedger(a.ID)

	credit, err := sharedDB.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer credit.Rollback()
	until := time.Now().Add(24 * time.Hour)
	if _, err := db.Post(ctx, credit, db.Posting{Key: "test-locked-credit:" + a.ID, AccountID: a.ID, Kind: "TEST", Entries: []db.Entry{
		{Account: wallet, Amount: 500, LockedUntil: &until},
		{Account: "platform:adjustments", Amount: -500},
	}}); err != nil {
		t.Fatal(err)
	}

	debit, err := sharedDB.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer debit.Rollback()
	var pid int
	if err := debit.GetContext(ctx, &pid, `SELECT pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := db.Post(ctx, debit, db.Posting{Key: "test-withdrawal:" + a.ID, AccountID: a.ID, Kind: "TEST", Entries: []db.Entry{
			{Account: wallet, Amount: -1200},
			{Account: "platform:adjustments", Amount: 1200},
		}, Withdraw: &db.Withdrawal{AccountID: a.ID, Amount: 1200}})
		done <- err
	}()
	// Positive signal that the withdrawal is inside ledger_post, waiting for
	// the wallet's lock, before the credit commits.
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(5 * time.Second)
	for waiting := false; !waiting; {
		select {
		case <-deadline:
			t.Fatal("the withdrawal never waited for the wallet's lock")
		case <-tick.C:
		}
		if err := sharedDB.GetContext(ctx, &waiting, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock')`, pid); err != nil {
			t.Fatal(err)
		}
	}
	if err := credit.Commit(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, domain.ErrInsufficientBalance) {
			t.Fatalf("withdrawal of R$ 12.00 with R$ 10.00 withdrawable: %v, want insufficient balance", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the withdrawal did not finish after the credit committed")
	}
	debit.Rollback()
	b, err := db.GetBalance(ctx, sharedDB, a.ID)
	if err != nil || b.Available != 1500 || b.Withdrawable != 1000 {
		t.Fatalf("balance %+v (%v), want R$ 15.00 available, R$ 10.00 withdrawable", b, err)
	}
}
