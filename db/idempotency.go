package db

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// IdempotencyTTL is how long a create's answer is kept for its key.
const IdempotencyTTL = 24 * time.Hour

// IdempotencyClaimTTL is how long a claim may stay in flight: far longer
// than a create runs (its Temporal start has a 5 s deadline), so a claim
// older than this belongs to a process that died mid-request, or one that
// could not record its answer while PostgreSQL was away. A retry then goes
// ahead and converges on what the first attempt committed.
const IdempotencyClaimTTL = time.Minute

// StoredAnswer is a create's first answer under an Idempotency-Key.
type StoredAnswer struct {
	Status   int
	Response []byte
}

// Claim is what db.Idempotency found for a request's key: exactly one of
// Claimed (this request goes ahead and must Remember or Forget its answer),
// Stored (an answer to replay), InFlight (the first request has not
// answered yet) or Mismatch (the key was used with another body).
type Claim struct {
	Claimed bool
	// Reclaimed is set with Claimed when the key was taken over from an
	// earlier claim (one left in flight by a process that died, or an
	// expired answer): that earlier attempt may have done its work, so the
	// answer of this one is kept only when it is a success.
	Reclaimed bool
	// ReusedAt is set with Claimed when the key's answer window had passed
	// and the key was last used with another request (another body, or the
	// same body on another route): when this request took the key over. A
	// resource the key named before then belongs to that other request and
	// must never answer this one as if it were its own; one made since is
	// this request's (its retries keep the time, until a success of it is
	// remembered and the key is its own).
	ReusedAt *time.Time
	// Replayed is set with Claimed when the key's answer window had passed
	// and the same request had succeeded under it: the resource it made
	// answers again, and the answer says it is a replay.
	Replayed bool
	Stored   *StoredAnswer
	InFlight bool
	Mismatch bool
}

// Idempotency claims (accountID, key) for a request whose body hashes to
// hash. Keys older than IdempotencyTTL are reclaimed (ReusedAt when the
// earlier request was another, Replayed when it was this one and
// succeeded), and so is a claim still in flight after IdempotencyClaimTTL
// by the same request: its process died before answering, and the retry
// must be able to go on (and converge on the resource the first attempt
// committed). The key is scoped by the caller (the API scopes it by API
// key).
func Idempotency(ctx context.Context, d *sqlx.DB, accountID, key string, hash []byte) (Claim, error) {
	// xmax is 0 on a row this statement inserted and set on one it updated:
	// the update is a takeover of an earlier claim. prior is the row as it
	// was before this statement (a CTE reads the statement's snapshot).
	var row struct {
		Reclaimed bool         `db:"reclaimed"`
		ReusedAt  sql.NullTime `db:"reused_at"`
		Replayed  bool         `db:"replayed"`
	}
	err := hotGet(ctx, d, &row, `
		WITH prior AS (SELECT request_hash, status FROM idempotency_keys WHERE account_id = $1 AND key = $2)
		INSERT INTO idempotency_keys (account_id, key, request_hash) VALUES ($1, $2, $3)
		ON CONFLICT (account_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = NULL, response = NULL, created_at = now(),
			reused_at = CASE WHEN idempotency_keys.request_hash = EXCLUDED.request_hash THEN idempotency_keys.reused_at ELSE now() END,
			prior_hash = CASE WHEN idempotency_keys.request_hash = EXCLUDED.request_hash THEN idempotency_keys.prior_hash ELSE idempotency_keys.request_hash END,
			prior_status = CASE WHEN idempotency_keys.request_hash = EXCLUDED.request_hash THEN idempotency_keys.prior_status ELSE idempotency_keys.status END,
			prior_created_at = CASE WHEN idempotency_keys.request_hash = EXCLUDED.request_hash THEN idempotency_keys.prior_created_at ELSE idempotency_keys.created_at END
		WHERE idempotency_keys.created_at < now() - $4 * interval '1 second'
		   OR (idempotency_keys.status IS NULL AND idempotency_keys.request_hash = EXCLUDED.request_hash
		       AND idempotency_keys.created_at < now() - $5 * interval '1 second')
		RETURNING NOT (xmax = 0) AS reclaimed, reused_at,
			COALESCE((SELECT request_hash = $3 AND status BETWEEN 200 AND 299 FROM prior), false) AS replayed`,
		accountID, key, hash, IdempotencyTTL.Seconds(), IdempotencyClaimTTL.Seconds())
	if err == nil {
		c := Claim{Claimed: true, Reclaimed: row.Reclaimed, Replayed: row.Replayed}
		if row.ReusedAt.Valid {
			c.ReusedAt = &row.ReusedAt.Time
		}
		return c, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Claim{}, fmt.Errorf("db: claim idempotency key: %w", err)
	}
	var found struct {
		Hash     []byte        `db:"request_hash"`
		Status   sql.NullInt64 `db:"status"`
		Response []byte        `db:"response"`
	}
	err = hotGet(ctx, d, &found, `SELECT request_hash, status, response FROM idempotency_keys WHERE account_id = $1 AND key = $2`, accountID, key)
	if errors.Is(err, sql.ErrNoRows) { // forgotten meanwhile: claim again
		return Idempotency(ctx, d, accountID, key, hash)
	}
	if err != nil {
		return Claim{}, fmt.Errorf("db: read idempotency key: %w", err)
	}
	switch {
	case !bytes.Equal(found.Hash, hash):
		return Claim{Mismatch: true}, nil
	case !found.Status.Valid:
		return Claim{InFlight: true}, nil
	}
	return Claim{Stored: &StoredAnswer{Status: int(found.Status.Int64), Response: found.Response}}, nil
}

// Remember stores the answer of a claimed key. A success makes the key
// this request's: what it names from now on is this request's resource,
// so the key is no longer marked reused. A refusal of a request that
// reused the key (it made nothing) gives the key back as it was, to the
// request it took it from: that one's identical retry still answers with
// its resource, and this one's is refused again the same way.
func Remember(ctx context.Context, d *sqlx.DB, accountID, key string, a StoredAnswer) error {
	_, err := hotExec(ctx, d, `UPDATE idempotency_keys SET status = CASE WHEN $3 < 300 OR reused_at IS NULL THEN $3 ELSE prior_status END,
		response = CASE WHEN $3 < 300 OR reused_at IS NULL THEN $4::bytea END,
		request_hash = CASE WHEN $3 < 300 OR reused_at IS NULL THEN request_hash ELSE prior_hash END,
		created_at = CASE WHEN $3 < 300 OR reused_at IS NULL THEN created_at ELSE prior_created_at END,
		reused_at = NULL, prior_hash = NULL, prior_status = NULL, prior_created_at = NULL
		WHERE account_id = $1 AND key = $2`,
		accountID, key, a.Status, a.Response)
	return err
}

// Forget releases a claimed key whose request ended without an answer worth
// keeping (a 5xx): a retry with the key goes ahead again. The row stays,
// dated out of its window, so the key keeps what it was used for (a
// request with another body that follows is a reuse, not new).
func Forget(ctx context.Context, d *sqlx.DB, accountID, key string) error {
	_, err := hotExec(ctx, d, `UPDATE idempotency_keys SET created_at = now() - $3 * interval '1 second'
		WHERE account_id = $1 AND key = $2 AND status IS NULL`, accountID, key, (IdempotencyTTL + time.Second).Seconds())
	return err
}

// PurgeIdempotency drops the answers older than IdempotencyTTL (the
// bulky part), so that the table a client grows stays bounded by a day of
// answers. The keys and their fingerprints stay: a key reused after the
// window is then known as reused (Claim.ReusedAt) and never answered with
// another request's resource.
func PurgeIdempotency(ctx context.Context, d *sqlx.DB) (int64, error) {
	res, err := d.ExecContext(ctx, `UPDATE idempotency_keys SET response = NULL
		WHERE response IS NOT NULL AND created_at < now() - $1 * interval '1 second'`, IdempotencyTTL.Seconds())
	if err != nil {
		return 0, fmt.Errorf("db: purge idempotency answers: %w", err)
	}
	return res.RowsAffected()
}
