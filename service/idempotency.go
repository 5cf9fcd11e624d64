package service

import (
	"context"
	"encoding/hex"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
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

// keyUse is what the idempotency middleware learnt of a request's key.
type keyUse struct {
	reusedAt    *time.Time
	fingerprint []byte
}

type keyUseCtx struct{}

// WithKeyUse tells the use cases a request makes under ctx what its
// Idempotency-Key's claim found: reusedAt (set when the key was last used,
// after its answer window, by another request: when this one took it
// over) and the request's keyed fingerprint (method, path and body).
func WithKeyUse(ctx context.Context, reusedAt *time.Time, fingerprint []byte) context.Context {
	return context.WithValue(ctx, keyUseCtx{}, keyUse{reusedAt: reusedAt, fingerprint: fingerprint})
}

// ownsKey is what a use case calls when it found the resource its
// Idempotency-Key derives (made at made), before it answers with it: nil
// when the resource is this request's, a 422 naming the header when it is
// the resource of another request that used the key before this one took
// it over (made before reusedAt). A request's resources are made after its
// claim, so a retry of the reusing request itself (after a crash) finds its
// own resource and answers with it; once it answers a success, the key is
// its own and no longer marked reused (db.Remember).
func ownsKey(ctx context.Context, made time.Time) error {
	if u, _ := ctx.Value(keyUseCtx{}).(keyUse); u.reusedAt != nil && made.Before(*u.reusedAt) {
		return domain.KeyReused()
	}
	return nil
}

// requestPrint is the request's keyed fingerprint in hex ("" outside the
// idempotency middleware): a derived id that must name what the body
// names (a card to tokenize) takes it, a secret-keyed digest, never the
// body itself.
func requestPrint(ctx context.Context) string {
	u, _ := ctx.Value(keyUseCtx{}).(keyUse)
	return hex.EncodeToString(u.fingerprint)
}
