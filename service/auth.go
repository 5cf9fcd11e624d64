package service

import (
	"context"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// Auth resolves API keys for the HTTP API and the WebSocket gateway.
type Auth struct {
	DB *sqlx.DB
	// TTL is how long Resolve keeps a resolved key and its account, at
	// most (JANGADA_KEY_CACHE_TTL; 0 keeps nothing): every change of a key
	// or an account drops them at once in the process that made it and
	// within milliseconds in the others (db.AuthChangedChannel), so TTL
	// only bounds a notification lost while a listener reconnects.
	TTL time.Duration

	// resolved holds one entry per key found (so at most one per key in
	// the database); a stale one is replaced or dropped on its next use.
	resolved sync.Map // [sha256.Size]byte → *resolvedKey
}

// resolvedKey is a key Resolve found, with its account, as of generation
// gen of db.AuthGeneration, kept until until.
type resolvedKey struct {
	key   domain.APIKey
	acct  domain.Account
	gen   uint64
	until time.Time
}

// KeyBySecret finds the key whose secret was presented (by its hash: the
// secret itself is never stored); an unknown or revoked key is
// domain.ErrUnauthorized.
func (s *Auth) KeyBySecret(ctx context.Context, secret string) (domain.APIKey, error) {
	return db.KeyByHash(ctx, s.DB, KeyHash(secret))
}

// Resolve finds the presented key and its account: every request pays it,
// so it is one statement, and its answer is kept for TTL unless a key or an
// account changes meanwhile. Only keys that were found are kept: an unknown
// or revoked one is read again each time (and rate-limited per address).
func (s *Auth) Resolve(ctx context.Context, secret string) (domain.APIKey, domain.Account, error) {
	hash := KeyHash(secret)
	if s.TTL <= 0 {
		return db.KeyAndAccountByHash(ctx, s.DB, hash)
	}
	id := [32]byte(hash)
	now := time.Now()
	gen := db.AuthGeneration()
	if v, ok := s.resolved.Load(id); ok {
		r := v.(*resolvedKey)
		if r.gen == gen && now.Before(r.until) {
			return r.key, r.acct, nil
		}
		s.resolved.CompareAndDelete(id, v)
	}
	// gen was read before the database: a change committed while the read
	// runs makes this answer stale at once, never kept.
	key, acct, err := db.KeyAndAccountByHash(ctx, s.DB, hash)
	if err == nil {
		s.resolved.Store(id, &resolvedKey{key: key, acct: acct, gen: gen, until: now.Add(s.TTL)})
	}
	return key, acct, err
}
