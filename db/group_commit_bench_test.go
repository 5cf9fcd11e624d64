package db_test

import (
	"fmt"
	"testing"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// BenchmarkPostBatch measures one group-commit batch of internal transfers
// between two accounts (both directions, the same two balance rows) by its
// size, one batch at a time: ns/op is per move.
func BenchmarkPostBatch(b *testing.B) {
	for _, size := range []int{1, 4, 8, 16, 32} {
		b.Run(fmt.Sprintf("moves=%d", size), func(b *testing.B) {
			ctx := b.Context()
			x, y := benchAccount(b), benchAccount(b)
			if _, err := sharedDB.ExecContext(ctx, `UPDATE ledger_accounts SET balance = 1000000000 WHERE id = ANY($1)`,
				[]string{domain.AvailableLedger(x.ID), domain.AvailableLedger(y.ID)}); err != nil {
				b.Fatal(err)
			}
			seq := 0
			b.ResetTimer()
			for done := 0; done < b.N; done += size {
				moves := make([]db.PostedMove, min(size, b.N-done))
				for i := range moves {
					seq++
					from, to := x.ID, y.ID
					if seq%2 == 0 {
						from, to = to, from
					}
					moves[i] = internalMove(from, to, fmt.Sprintf("%s-bench-%d", x.ID, seq), money.Cents(1), nil)
				}
				out, err := db.PostBatch(ctx, sharedDB, moves)
				if err != nil {
					b.Fatal(err)
				}
				for _, o := range out {
					if o.Err != nil {
						b.Fatal(o.Err)
					}
				}
			}
		})
	}
}

// BenchmarkBatchMember measures making one internal transfer's member (its
// two records, two events and posting as ledger_post_batch reads them),
// the work each request does on its own goroutine before it queues.
func BenchmarkBatchMember(b *testing.B) {
	move := internalMove("acc_from", "acc_to", "bench-member", money.Cents(1), nil)
	b.ReportAllocs()
	for b.Loop() {
		m := move
		m.Records = append([]domain.Transaction(nil), move.Records...)
		if _, err := db.BatchJSON([]db.PostedMove{m}); err != nil {
			b.Fatal(err)
		}
	}
}
