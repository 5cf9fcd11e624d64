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

// Idempotency claims (accountID, key) for a request whose body hashes to
// hash. It answers one of: claimed (this request goes ahead and must
// Remember or Forget its answer), a stored answer to replay, in flight (the
// first request has not answered yet), or a mismatch (the key was used
// with another body). Keys older than IdempotencyTTL are reclaimed, and so
// is a claim still in flight after IdempotencyClaimTTL by the same request:
// its process died before answering, and the retry must be able to go on
// (and converge on the resource the first attempt committed).
func Idempotency(ctx context.Context, d *sqlx.DB, accountID, key string, hash []byte) (claimed bool, stored *StoredAnswer, inFlight, mismatch bool, err error) {
	res, err := hotExec(ctx, d, `
		INSERT INTO idempotency_keys (account_id, key, request_hash) VALUES ($1, $2, $3)
		ON CONFLICT (account_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = NULL, response = NULL, created_at = now()
		WHERE idempotency_keys.created_at < now() - $4 * interval '1 second'
		   OR (idempotency_keys.status IS NULL AND idempotency_keys.request_hash = EXCLUDED.request_hash
		       AND idempotency_keys.created_at < now() - $5 * interval '1 second')`,
		accountID, key, hash, IdempotencyTTL.Seconds(), IdempotencyClaimTTL.Seconds())
	if err != nil {
		return false, nil, false, false, fmt.Errorf("db: claim idempotency key: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return true, nil, false, false, nil
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
		return false, nil, false, false, fmt.Errorf("db: read idempotency key: %w", err)
	}
	switch {
	case !bytes.Equal(row.Hash, hash):
		return false, nil, false, true, nil
	case !row.Status.Valid:
		return false, nil, true, false, nil
	}
	return false, &StoredAnswer{Status: int(row.Status.Int64), Response: row.Response}, false, false, nil
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
