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

// Account loads the key's account.
func (s *Auth) Account(ctx context.Context, id string) (domain.Account, error) {
	return db.GetAccount(ctx, s.DB, id)
}
