package service_test

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
	acct := newAccount(t, "Loja Reclaim")
	body, other := []byte("body-1"), []byte("body-2")
	if claimed, _, _, _, err := db.Idempotency(ctx, sharedDB, acct.ID, "k1", body); err != nil || !claimed {
		t.Fatalf("first claim: %v %v", claimed, err)
	}
	if _, _, inFlight, _, err := db.Idempotency(ctx, sharedDB, acct.ID, "k1", body); err != nil || !inFlight {
		t.Fatalf("second claim while the first is fresh: in flight %v, %v", inFlight, err)
	}
	if _, err := sharedDB.ExecContext(ctx, `UPDATE idempotency_keys SET created_at = now() - $2 * interval '1 second'
		WHERE account_id = $1`, acct.ID, db.IdempotencyClaimTTL.Seconds()+1); err != nil {
		t.Fatal(err)
	}
	if _, _, _, mismatch, err := db.Idempotency(ctx, sharedDB, acct.ID, "k1", other); err != nil || !mismatch {
		t.Fatalf("another body on a stale claim: mismatch %v, %v", mismatch, err)
	}
	if claimed, _, _, _, err := db.Idempotency(ctx, sharedDB, acct.ID, "k1", body); err != nil || !claimed {
		t.Fatalf("the same request on a stale claim: claimed %v, %v", claimed, err)
	}
}
