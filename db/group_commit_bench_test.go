package db_test

import (
	"cmp"
	"database/sql/driver"
	"fmt"
	"sync/atomic"
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

// benchMove is an internal transfer's move as the service makes it, its
// events carrying the public records.
func benchMove(name string) db.PostedMove {
	move := internalMove("acc_from", "acc_to", name, money.Cents(1), nil)
	for i := range move.Events {
		move.Events[i].Data = move.Records[i].EventData("https://api.jangada.dev") // what the service sends
	}
	return move
}

// BenchmarkBatchMember measures making and encoding one internal
// transfer's member (its two records, two events with their public
// records, and its posting) as ledger_post_batch reads it: what a batch
// that takes the jsonb path pays for each move.
func BenchmarkBatchMember(b *testing.B) {
	benchMember(b, benchMove("bench-member"), func(m db.PostedMove) error {
		_, err := db.BatchJSON([]db.PostedMove{m})
		return err
	})
}

// BenchmarkMemberOnRequest measures what a request's goroutine does to
// its move before it queues for a batch (db.Prepare): the work every
// internal transfer pays whatever its batch does.
func BenchmarkMemberOnRequest(b *testing.B) {
	benchMember(b, benchMove("bench-request"), func(m db.PostedMove) error { return db.Prepare(&m) })
}

// benchMember runs do on a fresh copy of move each iteration.
func benchMember(b *testing.B, move db.PostedMove, do func(db.PostedMove) error) {
	b.ReportAllocs()
	for b.Loop() {
		m := move
		m.Records = append([]domain.Transaction(nil), move.Records...)
		if err := do(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPostBatchTwoWriters is BenchmarkPostBatch with two writers
// sending batches of 16 on the same two balance rows at once, as two API
// processes' group commits do: ns/op is per move. What one batch does
// before it takes the rows overlaps the other's hold of them.
func BenchmarkPostBatchTwoWriters(b *testing.B) {
	const size, writers = 16, 2
	ctx := b.Context()
	x, y := benchAccount(b), benchAccount(b)
	if _, err := sharedDB.ExecContext(ctx, `UPDATE ledger_accounts SET balance = 1000000000 WHERE id = ANY($1)`,
		[]string{domain.AvailableLedger(x.ID), domain.AvailableLedger(y.ID)}); err != nil {
		b.Fatal(err)
	}
	var seq atomic.Int64
	errs := make(chan error, writers)
	b.ResetTimer()
	for w := range writers {
		go func() {
			for done := w * size; done < b.N; done += writers * size {
				moves := make([]db.PostedMove, min(size, b.N-done))
				for i := range moves {
					n := seq.Add(1)
					from, to := x.ID, y.ID
					if n%2 == 0 {
						from, to = to, from
					}
					moves[i] = internalMove(from, to, fmt.Sprintf("%s-two-%d", x.ID, n), money.Cents(1), nil)
				}
				out, err := db.PostBatch(ctx, sharedDB, moves)
				if err == nil {
					for _, o := range out {
						err = cmp.Or(err, o.Err)
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFastArgs measures the lane's own work before a batch of 16
// leaves: the 37 arrays made and encoded as the driver sends them (ns/op
// is per batch).
func BenchmarkFastArgs(b *testing.B) {
	moves := make([]db.PostedMove, 16)
	for i := range moves {
		moves[i] = benchMove(fmt.Sprintf("bench-args-%d", i))
	}
	if _, err := db.BatchJSON(moves); err != nil { // prepares each member
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		args, ok := db.FastArgs(moves)
		if !ok {
			b.Fatal("the fast path declined")
		}
		for _, a := range args {
			if _, err := a.(driver.Valuer).Value(); err != nil {
				b.Fatal(err)
			}
		}
	}
}
