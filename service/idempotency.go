package service

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
)

// Idempotency keeps the first answer of each create sent with an
// Idempotency-Key (the HTTP layer's middleware claims the key, then
// remembers or forgets the answer; see api/idempotency.go).
type Idempotency struct {
	DB *sqlx.DB
}

// Claim claims the account's key for a request whose body hashes to hash,
// or finds the answer to replay, the request still in flight, or another
// body under the same key.
func (s *Idempotency) Claim(ctx context.Context, accountID, key string, hash []byte) (IdempotencyClaim, error) {
	return db.Idempotency(ctx, s.DB, accountID, key, hash)
}

// Remember keeps a claimed key's answer for replay.
func (s *Idempotency) Remember(ctx context.Context, accountID, key string, a StoredAnswer) error {
	return db.Remember(ctx, s.DB, accountID, key, a)
}

// Forget releases a claimed key without an answer, so a retry goes ahead.
func (s *Idempotency) Forget(ctx context.Context, accountID, key string) error {
	return db.Forget(ctx, s.DB, accountID, key)
}
