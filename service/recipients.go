package service

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// recipients keeps the accounts internal transfers were sent to, by
// e-mail, as Auth keeps resolved keys: every change of an account drops
// them at once in the process that made it and within milliseconds in the
// others (db.AuthGeneration, moved by the accounts' NOTIFY), and ttl
// bounds a notification lost meanwhile. A transfer then costs one round
// trip (its posting) instead of two.
type recipients struct {
	found sync.Map // lower-case e-mail → *recipient
}

// recipient is an account found by e-mail as of generation gen.
type recipient struct {
	acct  domain.Account
	gen   uint64
	until time.Time
}

// byEmail is the account whose e-mail is email (not found as
// db.GetAccountByEmail says it), from what was found within ttl before
// when it still holds.
func (r *recipients) byEmail(ctx context.Context, q sqlx.QueryerContext, email string, ttl time.Duration) (domain.Account, error) {
	if ttl <= 0 {
		return db.GetAccountByEmail(ctx, q, email)
	}
	key := strings.ToLower(strings.TrimSpace(email))
	now, gen := time.Now(), db.AuthGeneration()
	if v, ok := r.found.Load(key); ok {
		if x := v.(*recipient); x.gen == gen && now.Before(x.until) {
			return x.acct, nil
		}
		r.found.Delete(key)
	}
	// gen was read before the database: a change committed meanwhile
	// makes this answer stale at once, never kept.
	acct, err := db.GetAccountByEmail(ctx, q, email)
	if err == nil {
		r.found.Store(key, &recipient{acct: acct, gen: gen, until: now.Add(ttl)})
	}
	return acct, err
}
