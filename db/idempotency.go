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
	Stored    *StoredAnswer
	InFlight  bool
	Mismatch  bool
}

// Idempotency claims (accountID, key) for a request whose body hashes to
// hash. Keys older than IdempotencyTTL are reclaimed, and so is a claim
// still in flight after IdempotencyClaimTTL by the same request: its
// process died before answering, and the retry must be able to go on (and
// converge on the resource the first attempt committed). The key is scoped
// by the caller (the API scopes it by API key).
func Idempotency(ctx context.Context, d *sqlx.DB, accountID, key string, hash []byte) (Claim, error) {
	// xmax is 0 on a row this statement inserted and set on one it updated:
	// the update is a takeover of an earlier claim.
	var reclaimed bool
	err := hotGet(ctx, d, &reclaimed, `
		INSERT INTO idempotency_keys (account_id, key, request_hash) VALUES ($1, $2, $3)
		ON CONFLICT (account_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = NULL, response = NULL, created_at = now()
		WHERE idempotency_keys.created_at < now() - $4 * interval '1 second'
		   OR (idempotency_keys.status IS NULL AND idempotency_keys.request_hash = EXCLUDED.request_hash
		       AND idempotency_keys.created_at < now() - $5 * interval '1 second')
		RETURNING NOT (xmax = 0)`,
		accountID, key, hash, IdempotencyTTL.Seconds(), IdempotencyClaimTTL.Seconds())
	if err == nil {
		return Claim{Claimed: true, Reclaimed: reclaimed}, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Claim{}, fmt.Errorf("db: claim idempotency key: %w", err)
	}
	var row struct {
		Hash     []byte        `db:"request_hash"`
		Status   sql.NullInt64 `db:"status"`
		Response []byte        `db:"response"`
	}
	err = hotGet(ctx, d, &row, `SELECT request_hash, status, response FROM idempotency_keys WHERE account_id = $1 AND key = $2`, accountID, key)
	if errors.Is(err, sql.ErrNoRows) { // forgotten meanwhile: claim again
		return Idempotency(ctx, d, accountID, key, hash)
	}
	if err != nil {
		return Claim{}, fmt.Errorf("db: read idempotency key: %w", err)
	}
	switch {
	case !bytes.Equal(row.Hash, hash):
		return Claim{Mismatch: true}, nil
	case !row.Status.Valid:
		return Claim{InFlight: true}, nil
	}
	return Claim{Stored: &StoredAnswer{Status: int(row.Status.Int64), Response: row.Response}}, nil
}

// Remember stores the answer of a claimed key.
func Remember(ctx context.Context, d *sqlx.DB, accountID, key string, a StoredAnswer) error {
	_, err := hotExec(ctx, d, `UPDATE idempotency_keys SET status = $3, response = $4 WHERE account_id = $1 AND key = $2`,
		accountID, key, a.Status, a.Response)
	return err
}

// Forget releases a claimed key whose request ended without an answer worth
// keeping (a 5xx): a retry with the key goes ahead again.
func Forget(ctx context.Context, d *sqlx.DB, accountID, key string) error {
	_, err := hotExec(ctx, d, `DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND status IS NULL`, accountID, key)
	return err
}

// PurgeIdempotency deletes the answers older than IdempotencyTTL, so that
// the table a client grows stays bounded by a day of creates.
func PurgeIdempotency(ctx context.Context, d *sqlx.DB) (int64, error) {
	res, err := d.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE created_at < now() - $1 * interval '1 second'`, IdempotencyTTL.Seconds())
	if err != nil {
		return 0, fmt.Errorf("db: purge idempotency keys: %w", err)
	}
	return res.RowsAffected()
}
