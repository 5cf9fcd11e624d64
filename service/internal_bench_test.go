package service_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

// BenchmarkInternalTransferParallel is the internal-transfer use case
// between two funded accounts in both directions, 16 at a time (the HTTP
// bench's shape without HTTP): run with -cpu 16 or -test.cpu to set the
// concurrency. It isolates the database work of one transfer.
func BenchmarkInternalTransferParallel(b *testing.B) {
	a, c := newAccountB(b), newAccountB(b)
	for _, x := range []domain.Account{a, c} {
		fund(b, x.ID, 1<<40)
	}
	s := &service.Internal{DB: sharedDB, PublicURL: "https://api.jangada.test"}

	var n atomic.Int64
	b.SetParallelism(8) // 8 × GOMAXPROCS (2 here) = 16 in flight
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			from, to := a, c
			if i%2 == 1 {
				from, to = c, a
			}
			if _, err := s.Create(b.Context(), from, domain.APIKey{ID: "k"}, domain.NewInternal{
				Amount: 1, RecipientEmail: to.Email, Description: fmt.Sprint(i)}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkBareTransferTxParallel is the floor of the benchmark above: one
// transaction locking two balance rows in id order, updating both and
// inserting two rows, 16 at a time, on the same database.
func BenchmarkBareTransferTxParallel(b *testing.B) {
	ctx := b.Context()
	if _, err := sharedDB.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS bench_balances (id bigint PRIMARY KEY, balance bigint NOT NULL);
		INSERT INTO bench_balances VALUES (1, 0), (2, 0) ON CONFLICT DO NOTHING;
		CREATE TABLE IF NOT EXISTS bench_moves (id bigserial PRIMARY KEY, account bigint, amount bigint, note text)`); err != nil {
		b.Fatal(err)
	}
	var n atomic.Int64
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			from, to := 1+i%2, 2-i%2
			tx, err := sharedDB.BeginTxx(ctx, nil)
			if err != nil {
				b.Error(err)
				return
			}
			_, err = tx.ExecContext(ctx, `SELECT id FROM bench_balances WHERE id IN (1, 2) ORDER BY id FOR UPDATE`)
			for _, m := range [][2]int64{{from, -1}, {to, 1}} {
				if err == nil {
					_, err = tx.ExecContext(ctx, `UPDATE bench_balances SET balance = balance + $2 WHERE id = $1`, m[0], m[1])
				}
				if err == nil {
					_, err = tx.ExecContext(ctx, `INSERT INTO bench_moves (account, amount, note) VALUES ($1, $2, 'move')`, m[0], m[1])
				}
			}
			if err == nil {
				err = tx.Commit()
			} else {
				tx.Rollback()
			}
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
}
