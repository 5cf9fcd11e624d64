//go:build devserver

package main

import (
	"context"
	"fmt"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

// internalTransfers measures POST /v1/transfer-internal/create at
// concurrency 16 between two accounts in both directions, beside one
// PostgreSQL transaction with the same writes on the same database, the
// best a client does (bare_pgx.go): two balance rows updated in id order,
// two rows inserted, in one round trip.
func internalTransfers(ctx context.Context, r *rig, n int) (ours, bare result, err error) {
	other, otherKey, err := r.secondAccount(ctx)
	if err != nil {
		return ours, bare, err
	}
	if _, err := r.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS bench_balances (id bigint PRIMARY KEY, balance bigint NOT NULL);
		INSERT INTO bench_balances VALUES (1, 0), (2, 0) ON CONFLICT DO NOTHING;
		CREATE TABLE IF NOT EXISTS bench_moves (id bigserial PRIMARY KEY, account bigint, amount bigint, note text)`); err != nil {
		return ours, bare, err
	}
	pool, err := r.barePool(ctx)
	if err != nil {
		return ours, bare, err
	}
	defer pool.Close()
	// The two balance rows updated in id order (the updates take the
	// locks), then the two moves inserted: one round trip.
	bareTx := func(ctx context.Context, i int) error {
		from, to := int64(1+i%2), int64(2-i%2)
		first, second := int64(-1), int64(1) // row 1's change, row 2's
		if from == 2 {
			first, second = 1, -1
		}
		return bareBatch(ctx, pool,
			bareStatement{`UPDATE bench_balances SET balance = balance + $2 WHERE id = $1`, []any{int64(1), first}},
			bareStatement{`UPDATE bench_balances SET balance = balance + $2 WHERE id = $1`, []any{int64(2), second}},
			bareStatement{`INSERT INTO bench_moves (account, amount, note) VALUES ($1, $2, 'move')`, []any{from, int64(-1)}},
			bareStatement{`INSERT INTO bench_moves (account, amount, note) VALUES ($1, $2, 'move')`, []any{to, int64(1)}})
	}
	myEmail := r.email
	transfer := func(ctx context.Context, i int) error {
		body := map[string]any{"amount": 0.01, "description": fmt.Sprint(i)}
		if i%2 == 0 {
			body["recipientEmail"] = other.Email
			return r.post(ctx, "/v1/transfer-internal/create", body)
		}
		body["recipientEmail"] = myEmail
		return r.postAs(ctx, otherKey, "/v1/transfer-internal/create", body)
	}
	bare, ours = r.paired(ctx, 16, n, "bare PG tx (pgx, prepared, 1 round trip)", bareTx, "POST /v1/transfer-internal/create", transfer, nil)
	return ours, bare, nil
}

// secondAccount makes another merchant with a key of its own, and funds it
// and the bench's merchant with R$ 1,000,000 each (idempotent per account):
// the other side of internal transfers.
func (r *rig) secondAccount(ctx context.Context) (domain.Account, string, error) {
	other, err := service.NewAccount(ctx, r.db, "Loja Destino", fmt.Sprintf("bench-dest-%d@jangada.dev", r.seq.Add(1)), "52998224725")
	if err != nil {
		return other, "", err
	}
	_, key, err := service.NewKey(ctx, r.db, other.ID, domain.NewKey{Name: "bench", Permissions: []string{"*"}, RateLimitPerMinute: 1_000_000})
	if err != nil {
		return other, "", err
	}
	for _, id := range []string{r.accountID, other.ID} {
		if _, err := service.Adjust(ctx, r.db, id, 100_000_000, "bench funding", "bench-funding-"+id); err != nil {
			return other, "", err
		}
	}
	return other, key, nil
}

// post sends one authenticated JSON POST and wants a 200.
func (r *rig) post(ctx context.Context, path string, body any) error {
	_, err := r.postData(ctx, path, body)
	return err
}
