package service

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// Auth resolves API keys for the HTTP API and the WebSocket gateway.
type Auth struct {
	DB *sqlx.DB
}

// KeyBySecret finds the key whose secret was presented (by its hash: the
// secret itself is never stored); an unknown or revoked key is
// domain.ErrUnauthorized.
func (s *Auth) KeyBySecret(ctx context.Context, secret string) (domain.APIKey, error) {
	return db.KeyByHash(ctx, s.DB, KeyHash(secret))
}

// Resolve finds the presented key and its account in one read: every
// request pays it, so it is one statement, not two.
func (s *Auth) Resolve(ctx context.Context, secret string) (domain.APIKey, domain.Account, error) {
	return db.KeyAndAccountByHash(ctx, s.DB, KeyHash(secret))
}
