//go:build devserver

package main

import (
	"context"
	"fmt"

	"github.com/jangada/jangada/service"
)

// runMoney measures internal transfers at concurrency 16 beside a bare
// PostgreSQL transaction with as many row writes on the same database, and
// PIX out create latency.
func runMoney(ctx context.Context, r *rig, n int) ([]result, error) {
	to, err := service.NewAccount(ctx, r.db, "Loja Destino", "bench-dest@jangada.dev", "52998224725")
	if err != nil {
		return nil, err
	}
	from := r.accountID
	if _, err := service.Adjust(ctx, r.db, from, 100_000_000, "bench funding", "bench-funding"); err != nil {
		return nil, err
	}
	if _, err := r.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS bench_rows (id bigserial PRIMARY KEY, n bigint, s text)`); err != nil {
		return nil, err
	}
	if _, err := r.db.ExecContext(ctx, `INSERT INTO bench_rows (n, s) VALUES (0, 'a'), (0, 'b')`); err != nil {
		return nil, err
	}
	// An internal transfer writes 2 records, 1 ledger transaction, 2 entries,
	// 2 balance updates and 2 events (9 rows) after locking 2 balance rows.
	bare := func(ctx context.Context, i int) error {
		tx, err := r.db.BeginTxx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, `SELECT id FROM bench_rows WHERE id IN (1, 2) ORDER BY id FOR UPDATE`); err != nil {
			return err
		}
		for range 7 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO bench_rows (n, s) VALUES ($1, 'row')`, i); err != nil {
				return err
			}
		}
		for _, id := range []int{1, 2} {
			if _, err := tx.ExecContext(ctx, `UPDATE bench_rows SET n = n + 1 WHERE id = $1`, id); err != nil {
				return err
			}
		}
		return tx.Commit()
	}
	internal := func(ctx context.Context, i int) error {
		return r.post(ctx, "/v1/transfer-internal/create", map[string]any{"amount": 0.01, "recipientEmail": to.Email, "description": fmt.Sprint(i)})
	}
	pixOut := func(ctx context.Context, i int) error {
		return r.post(ctx, "/v1/transfer-pix/create", map[string]any{"amount": 1, "pixKey": fmt.Sprintf("b%d@example.com", i), "pixKeyType": "EMAIL"})
	}
	var out []result
	out = append(out, run(ctx, "bare PG tx, 9 row writes", 16, n, bare))
	out = append(out, run(ctx, "POST /v1/transfer-internal/create", 16, n, internal))
	out = append(out, run(ctx, "POST /v1/transfer-pix/create", 1, n/10, pixOut))
	out = append(out, run(ctx, "POST /v1/transfer-pix/create", 16, n/2, pixOut))
	return out, nil
}

// post sends one authenticated JSON POST and wants a 200.
func (r *rig) post(ctx context.Context, path string, body any) error {
	_, err := r.postData(ctx, path, body)
	return err
}
