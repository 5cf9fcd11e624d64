package db_test

import (
	"testing"

	"github.com/jangada/jangada/db"
)

// A claim left in flight by a process that died is reclaimed by the same
// request once db.IdempotencyClaimTTL has passed; another body still gets
// the mismatch, and a fresh in-flight claim stays in flight.
func TestIdempotencyClaimOfADeadProcessIsReclaimed(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Reclaim")
	body, other := []byte("body-1"), []byte("body-2")
	if c, err := db.Idempotency(ctx, sharedDB, acct.ID, "k1", body); err != nil || !c.Claimed || c.Reclaimed {
		t.Fatalf("first claim: %+v %v", c, err)
	}
	if c, err := db.Idempotency(ctx, sharedDB, acct.ID, "k1", body); err != nil || !c.InFlight {
		t.Fatalf("second claim while the first is fresh: %+v, %v", c, err)
	}
	if _, err := sharedDB.ExecContext(ctx, `UPDATE idempotency_keys SET created_at = now() - $2 * interval '1 second'
		WHERE account_id = $1`, acct.ID, db.IdempotencyClaimTTL.Seconds()+1); err != nil {
		t.Fatal(err)
	}
	if c, err := db.Idempotency(ctx, sharedDB, acct.ID, "k1", other); err != nil || !c.Mismatch {
		t.Fatalf("another body on a stale claim: %+v, %v", c, err)
	}
	if c, err := db.Idempotency(ctx, sharedDB, acct.ID, "k1", body); err != nil || !c.Claimed || !c.Reclaimed {
		t.Fatalf("the same request on a stale claim: %+v, %v", c, err)
	}
}
