package service_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

// benchSubs is an account with two funded sub-accounts for the benchmarks.
func benchSubs(b *testing.B) (*service.Subaccounts, domain.Account, string, string) {
	b.Helper()
	acct := newAccountB(b)
	acct.Features.Subaccounts = true
	s := &service.Subaccounts{DB: sharedDB}
	fund(b, acct.ID, 1<<40)
	ids := make([]string, 2)
	for i := range ids {
		v, err := s.Create(b.Context(), acct, subaccount.NewSubaccount{PersonType: "PF", Name: "Bench", CPF: "52998224725",
			BirthDate: "1990-01-01", PostalCode: "01310100", ExternalReference: fmt.Sprintf("bench-%d", i)})
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = v.ID
		if _, err := s.AddBalance(b.Context(), acct, domain.APIKey{ID: "k"}, subaccount.Move{To: v.ID, Amount: 1 << 36, ExternalReference: "seed-" + v.ID}); err != nil {
			b.Fatal(err)
		}
	}
	return s, acct, ids[0], ids[1]
}

func newAccountB(b *testing.B) domain.Account {
	b.Helper()
	a, err := service.NewAccount(b.Context(), sharedDB, "Bench", fmt.Sprintf("bench-%d@example.com", time.Now().UnixNano()), "52998224725")
	if err != nil {
		b.Fatal(err)
	}
	return a
}

// BenchmarkSubaccountAddBalance is one add-balance (main → sub) per op.
func BenchmarkSubaccountAddBalance(b *testing.B) {
	s, acct, sub, _ := benchSubs(b)
	key := domain.APIKey{ID: "k"}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := s.AddBalance(b.Context(), acct, key, subaccount.Move{To: sub, Amount: 1, ExternalReference: fmt.Sprintf("a%d", i)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSubaccountTransfer is one sub → sub transfer per op.
func BenchmarkSubaccountTransfer(b *testing.B) {
	s, acct, from, to := benchSubs(b)
	key := domain.APIKey{ID: "k"}
	for i := 0; b.Loop(); i++ {
		if _, err := s.Transfer(b.Context(), acct, key, subaccount.Move{From: from, To: to, Amount: 1, ExternalReference: fmt.Sprintf("t%d", i)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBarePostgresMove is the floor: one transaction with the same
// writes as a transfer (lock both sub-account rows and both ledger rows,
// insert the record, the ledger transaction and two entries, update two
// balances), without the use case's reads and checks.
func BenchmarkBarePostgresMove(b *testing.B) {
	_, acct, from, to := benchSubs(b)
	ctx := b.Context()
	for i := 0; b.Loop(); i++ {
		tx, err := sharedDB.BeginTxx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		id := domain.NewID("")
		amt := money.Cents(1)
		stmts := []struct {
			q    string
			args []any
		}{
			{`SELECT id FROM subaccounts WHERE id IN ($1, $2) ORDER BY id FOR UPDATE`, []any{from, to}},
			{`SELECT id FROM ledger_accounts WHERE id IN ($1, $2) ORDER BY id FOR UPDATE`, []any{from + ":available", to + ":available"}},
			{`INSERT INTO transactions (id, account_id, type, status, amount, net_amount, external_reference, subaccount_id, details, completed_at)
			  VALUES ($1, $2, 'SUBACCOUNT_TRANSFER', 'COMPLETED', $3, $3, $4, $5, '{}', now())`, []any{id, acct.ID, amt, "bare" + id, from}},
			{`WITH t AS (INSERT INTO ledger_transactions (idempotency_key, account_id, transaction_id, kind) VALUES ($1, $2, $3, 'SUBACCOUNT_TRANSFER') RETURNING id)
			  INSERT INTO ledger_entries (ledger_transaction_id, ledger_account_id, amount) SELECT t.id, a, m FROM t, unnest($4::text[], $5::bigint[]) u(a, m)`,
				[]any{"bare:" + id, acct.ID, id, "{" + from + ":available," + to + ":available}", "{-1,1}"}},
			{`UPDATE ledger_accounts SET balance = balance + CASE WHEN id = $1 THEN -1 ELSE 1 END WHERE id IN ($1, $2)`, []any{from + ":available", to + ":available"}},
		}
		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, s.q, s.args...); err != nil {
				tx.Rollback()
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}
