package db_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/jangada/jangada/db"
)

// BenchmarkIdempotencyClaimAndAnswer is a keyed create's two idempotency
// statements (the claim, then the answer kept), each key new, as every
// keyed create runs them.
func BenchmarkIdempotencyClaimAndAnswer(b *testing.B) {
	ctx := b.Context()
	acct := benchAccount(b)
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			key := fmt.Sprintf("k-%d", n.Add(1))
			if c, err := db.Idempotency(ctx, sharedDB, acct.ID, key, []byte("fingerprint-of-the-request")); err != nil || !c.Claimed {
				b.Errorf("claim: %+v %v", c, err)
				return
			}
			if err := db.Remember(ctx, sharedDB, acct.ID, key, db.StoredAnswer{Status: 200, Response: []byte(`{"success":true}`)}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkBareIdempotencyClaimAndAnswer is its floor: the fewest
// statements that claim a key and keep an answer (an insert that does
// nothing on a conflict, an update), prepared, with no window, no reuse and
// no takeover.
func BenchmarkBareIdempotencyClaimAndAnswer(b *testing.B) {
	ctx := b.Context()
	acct := benchAccount(b)
	claim, err := sharedDB.PreparexContext(ctx, `INSERT INTO idempotency_keys (account_id, key, request_hash) VALUES ($1, $2, $3)
		ON CONFLICT (account_id, key) DO NOTHING RETURNING true`)
	if err != nil {
		b.Fatal(err)
	}
	answer, err := sharedDB.PreparexContext(ctx, `UPDATE idempotency_keys SET status = $3, response = $4 WHERE account_id = $1 AND key = $2`)
	if err != nil {
		b.Fatal(err)
	}
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			key := fmt.Sprintf("bare-%d", n.Add(1))
			var ok bool
			if err := claim.GetContext(ctx, &ok, acct.ID, key, []byte("fingerprint-of-the-request")); err != nil {
				b.Error(err)
				return
			}
			if _, err := answer.ExecContext(ctx, acct.ID, key, 200, []byte(`{"success":true}`)); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
