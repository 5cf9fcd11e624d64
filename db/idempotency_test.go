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

// After the answer window, a key keeps its fingerprint: the same request
// that succeeded is a replay, another request is Reused (and stays so for
// its own retries, a forgotten 5xx included), and the purge drops answers,
// never keys.
func TestIdempotencyKeyOutlivesItsAnswer(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, sharedDB, "Loja Window")
	first, second := []byte("body-1"), []byte("body-2")
	expire := func() {
		t.Helper()
		if _, err := sharedDB.ExecContext(ctx, `UPDATE idempotency_keys SET created_at = now() - $2 * interval '1 second'
			WHERE account_id = $1`, acct.ID, db.IdempotencyTTL.Seconds()+1); err != nil {
			t.Fatal(err)
		}
	}
	claim := func(key string, body []byte) db.Claim {
		t.Helper()
		c, err := db.Idempotency(ctx, sharedDB, acct.ID, key, body)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := claim("k", first); !c.Claimed || c.ReusedAt != nil || c.Replayed {
		t.Fatalf("first claim: %+v", c)
	}
	if err := db.Remember(ctx, sharedDB, acct.ID, "k", db.StoredAnswer{Status: 200, Response: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	expire()
	if n, err := db.PurgeIdempotency(ctx, sharedDB); err != nil || n < 1 {
		t.Fatalf("purge: %d, %v", n, err)
	}
	var keys int
	if err := sharedDB.GetContext(ctx, &keys, `SELECT count(*) FROM idempotency_keys WHERE account_id = $1 AND response IS NULL`, acct.ID); err != nil || keys != 1 {
		t.Fatalf("the purge kept %d keys without their answer (%v), want 1", keys, err)
	}
	if c := claim("k", first); !c.Claimed || !c.Reclaimed || !c.Replayed || c.ReusedAt != nil {
		t.Fatalf("the same request after the window: %+v", c)
	}
	if err := db.Remember(ctx, sharedDB, acct.ID, "k", db.StoredAnswer{Status: 200, Response: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	expire()
	if c := claim("k", second); !c.Claimed || c.ReusedAt == nil || c.Replayed {
		t.Fatalf("another request after the window: %+v", c)
	}
	// Refused (it made nothing), it gives the key back: the first request
	// is a replay again, the second a reuse again.
	if err := db.Remember(ctx, sharedDB, acct.ID, "k", db.StoredAnswer{Status: 422, Response: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if c := claim("k", first); !c.Claimed || c.ReusedAt != nil || !c.Replayed {
		t.Fatalf("the first request after a refused reuse: %+v", c)
	}
	if err := db.Remember(ctx, sharedDB, acct.ID, "k", db.StoredAnswer{Status: 200, Response: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	expire()
	if c := claim("k", second); !c.Claimed || c.ReusedAt == nil || c.Replayed {
		t.Fatalf("another request after the window, again: %+v", c)
	}
	// Its 5xx is forgotten; its retry is still a reuse, at once.
	if err := db.Forget(ctx, sharedDB, acct.ID, "k"); err != nil {
		t.Fatal(err)
	}
	if c := claim("k", second); !c.Claimed || c.ReusedAt == nil || c.Replayed {
		t.Fatalf("the reusing request's retry after a 5xx: %+v", c)
	}
	// Its success makes the key its own: after the window it is a replay.
	if err := db.Remember(ctx, sharedDB, acct.ID, "k", db.StoredAnswer{Status: 201, Response: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	expire()
	if c := claim("k", second); !c.Claimed || c.ReusedAt != nil || !c.Replayed {
		t.Fatalf("the reusing request after its success and the window: %+v", c)
	}
	// A key whose only request ended in a 5xx may still name what that
	// request committed: another body under it is a reuse, never a replay.
	if c := claim("fresh", first); !c.Claimed || c.ReusedAt != nil {
		t.Fatalf("fresh key: %+v", c)
	}
	if err := db.Forget(ctx, sharedDB, acct.ID, "fresh"); err != nil {
		t.Fatal(err)
	}
	if c := claim("fresh", second); !c.Claimed || c.ReusedAt == nil || c.Replayed {
		t.Fatalf("a forgotten key's next request: %+v", c)
	}
}
