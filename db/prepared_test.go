package db_test

import (
	"crypto/sha256"
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/poll"
)

// The statements every request runs are prepared and reused, in a
// transaction too: planning them each time cost PostgreSQL
// more CPU than running them. The request here is an internal transfer
// under an Idempotency-Key, made of the db calls its use case makes.
func TestHotStatementsRunPrepared(t *testing.T) {
	d := dbtest.New(t)
	d.SetMaxOpenConns(1) // one connection, so its session is the one we look at
	ctx := t.Context()
	acct := newAccount(t, d, "Prepared Ltda")
	other := newAccount(t, d, "Other Ltda")
	fund(t, d, acct.ID, 1000)
	secret := domain.NewID("secret-")
	hash := sha256.Sum256([]byte(secret))
	key, err := db.CreateKey(ctx, d, domain.APIKey{ID: domain.NewID("key_"), AccountID: acct.ID, Name: "k", Prefix: secret[:13],
		Permissions: []string{"*"}, RateLimitPerMinute: 100}, hash[:])
	if err != nil {
		t.Fatal(err)
	}
	transfer := func() {
		t.Helper()
		k, a, err := db.KeyAndAccountByHash(ctx, d, hash[:])
		if err != nil {
			t.Fatal(err)
		}
		if k.ID != key.ID || a.ID != acct.ID {
			t.Fatalf("resolved key %s of %s, want %s of %s", k.ID, a.ID, key.ID, acct.ID)
		}
		idem := domain.NewID("idem-")
		if c, err := db.Idempotency(ctx, d, a.ID, idem, []byte("h")); err != nil || !c.Claimed {
			t.Fatalf("claim %s: %+v, %v", idem, c, err)
		}
		to, err := db.GetAccountByEmail(ctx, d, other.Email)
		if err != nil {
			t.Fatal(err)
		}
		now := domain.NewTime(time.Now())
		out := domain.Transaction{ID: domain.NewID(""), AccountID: a.ID, APIKeyID: &k.ID, Type: domain.TypeInternalOut,
			Status: domain.StatusCompleted, Amount: 100, NetAmount: 100, Description: "p", CompletedAt: &now, CreatedAt: now}
		in := domain.Transaction{ID: domain.NewID(""), AccountID: to.ID, Type: domain.TypeInternalIn,
			Status: domain.StatusCompleted, Amount: 100, NetAmount: 100, Description: "p", CompletedAt: &now, CreatedAt: now}
		err = db.InTx(ctx, d, func(tx *sqlx.Tx) error {
			if _, err := db.InsertTransactions(ctx, tx, out, in); err != nil {
				return err
			}
			if _, err := db.InsertEvents(ctx, tx,
				db.NewEvent{AccountID: a.ID, APIKeyID: &k.ID, Type: domain.EventInternalCompleted, ResourceID: out.ID, Data: map[string]any{"id": out.ID}},
				db.NewEvent{AccountID: to.ID, Type: domain.EventInternalReceived, ResourceID: in.ID, Data: map[string]any{"id": in.ID}},
			); err != nil {
				return err
			}
			_, err := db.Post(ctx, tx, db.Posting{Key: "internal:" + out.ID, AccountID: a.ID, TransactionID: out.ID,
				Kind: domain.TypeInternalOut, Entries: []db.Entry{
					{Account: domain.AvailableLedger(a.ID), Amount: -100},
					{Account: domain.AvailableLedger(to.ID), Amount: 100},
				}, Withdraw: &db.Withdrawal{AccountID: a.ID, Amount: 100}})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Remember(ctx, d, a.ID, idem, db.StoredAnswer{Status: 200, Response: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	hot := map[string]string{
		"key lookup":          "%FROM api_keys k JOIN accounts a%",
		"recipient by e-mail": "%FROM accounts WHERE lower(email)%",
		"posting (in a tx)":   "%FROM ledger_post(%",
		"events (in a tx)":    "%INSERT INTO events%unnest%",
		"transfers (in a tx)": "%INSERT INTO transactions%",
		"idempotency claim":   "%INSERT INTO idempotency_keys%",
		"idempotency answer":  "%UPDATE idempotency_keys SET status%",
	}
	// A transaction never waits for a connection to prepare on: its first
	// run of a statement is unprepared, and the statement is prepared beside
	// it, once the connection is free.
	transfer()
	poll.Until(t, 10*time.Second, "the transfer's statements prepared", func() bool {
		for _, like := range hot {
			if n, _ := prepared(t, d, like); n == 0 {
				return false
			}
		}
		return true
	})
	before := map[string]int{}
	for what, like := range hot {
		_, before[what] = prepared(t, d, like)
	}
	transfer()
	transfer()
	for what, like := range hot {
		n, runs := prepared(t, d, like)
		if n == 0 || runs < before[what]+2 {
			t.Errorf("%s: %d prepared, run %d times then %d; want it run twice more", what, n, before[what], runs)
		}
	}
	if _, _, err := db.KeyAndAccountByHash(ctx, d, []byte("unknown")); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("unknown secret: %v, want ErrUnauthorized", err)
	}
	// 3 transfers of 1.00 each left 7.00: the prepared posting moved money.
	if b, err := db.GetBalance(ctx, d, acct.ID); err != nil || b.Available != 700 {
		t.Fatalf("balance %+v, %v; want 700 available", b, err)
	}
}

// prepared counts the connection's prepared statements whose text is like,
// and how many times they ran.
func prepared(t *testing.T, d *sqlx.DB, like string) (n, runs int) {
	t.Helper()
	var row struct{ N, Runs int }
	if err := d.GetContext(t.Context(), &row, `SELECT count(*) AS n, coalesce(sum(generic_plans + custom_plans), 0) AS runs
		FROM pg_prepared_statements WHERE statement LIKE $1 AND statement NOT LIKE '%pg_prepared_statements%'`, like); err != nil {
		t.Fatal(err)
	}
	return row.N, row.Runs
}
