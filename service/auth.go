package service

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
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

	// uncached holds the uses of keys read without the cache (TTL 0)
	// until RecordUses writes them.
	mu       sync.Mutex
	uncached map[string]time.Time
}

// resolvedKey is a key Resolve found, with its account, as of generation
// gen of db.AuthGeneration, kept until until.
type resolvedKey struct {
	key   domain.APIKey
	acct  domain.Account
	gen   uint64
	until time.Time
	// used is the last use (Unix nanoseconds), written is the last one
	// RecordUses wrote: a use costs an atomic store, not a write.
	used, written atomic.Int64
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
		key, acct, err := db.KeyAndAccountByHash(ctx, s.DB, hash)
		if err == nil {
			s.mu.Lock()
			if s.uncached == nil {
				s.uncached = map[string]time.Time{}
			}
			s.uncached[key.ID] = time.Now()
			s.mu.Unlock()
		}
		return key, acct, err
	}
	id := [32]byte(hash)
	now := time.Now()
	gen := db.AuthGeneration()
	if v, ok := s.resolved.Load(id); ok {
		r := v.(*resolvedKey)
		if r.gen == gen && now.Before(r.until) {
			r.used.Store(now.UnixNano())
			return r.key, r.acct, nil
		}
		s.resolved.CompareAndDelete(id, v)
	}
	// gen was read before the database: a change committed while the read
	// runs makes this answer stale at once, never kept.
	key, acct, err := db.KeyAndAccountByHash(ctx, s.DB, hash)
	if err == nil {
		r := &resolvedKey{key: key, acct: acct, gen: gen, until: now.Add(s.TTL)}
		r.used.Store(now.UnixNano())
		s.resolved.Store(id, r)
	}
	return key, acct, err
}

// RecordUses writes the keys' last uses (the dashboard lists them) every
// interval until ctx ends, then once more: one statement for every key
// used since the last write.
func (s *Auth) RecordUses(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			wctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			s.writeUses(wctx)
			cancel()
			return
		case <-t.C:
			s.writeUses(ctx)
		}
	}
}

// writeUses writes the uses seen since the last write.
func (s *Auth) writeUses(ctx context.Context) {
	uses := map[string]time.Time{}
	s.resolved.Range(func(_, v any) bool {
		r := v.(*resolvedKey)
		if u := r.used.Load(); u > r.written.Load() {
			r.written.Store(u)
			if at := time.Unix(0, u); at.After(uses[r.key.ID]) {
				uses[r.key.ID] = at
			}
		}
		return true
	})
	s.mu.Lock()
	for id, at := range s.uncached {
		if at.After(uses[id]) {
			uses[id] = at
		}
	}
	s.uncached = nil
	s.mu.Unlock()
	if err := db.TouchKeys(ctx, s.DB, uses); err != nil && ctx.Err() == nil {
		slog.Warn("record key uses", "error", err)
	}
}
