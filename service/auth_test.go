package service_test

import (
	"errors"
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/internal/poll"
	"github.com/jangada/jangada/service"
)

// Resolve keeps a key it found, with its account, until this process learns
// of a change of a key or an account (db.AuthChanged: its own writes at
// once, other processes' through their NOTIFY) or TTL passes; with TTL 0 it
// reads every time, and a revoked key is refused at once.
func TestResolveKeepsAKeyUntilAChangeOrItsTTL(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, "Cache Ltda")
	_, secret, err := service.NewKey(ctx, sharedDB, acct.ID, domain.NewKey{Name: "k", Permissions: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	rename := func(name string) {
		t.Helper()
		// Plain SQL, as another process would: this one learns of it only
		// through db.AuthChanged (its listener's, in the API).
		if _, err := sharedDB.ExecContext(ctx, `UPDATE accounts SET name = $2 WHERE id = $1`, acct.ID, name); err != nil {
			t.Fatal(err)
		}
	}
	nameSeen := func(a *service.Auth) string {
		t.Helper()
		_, got, err := a.Resolve(ctx, secret)
		if err != nil {
			t.Fatal(err)
		}
		return got.Name
	}

	kept := &service.Auth{DB: sharedDB, TTL: time.Hour}
	// Other tests of the package move the generation too (they revoke
	// keys): the kept answer must hold whenever it stood still.
	poll.Until(t, 10*time.Second, "two answers while nothing was announced", func() bool {
		rename("Antes")
		db.AuthChanged() // drops what an earlier round kept
		gen := db.AuthGeneration()
		first := nameSeen(kept)
		rename("Depois")
		second := nameSeen(kept)
		if db.AuthGeneration() != gen {
			return false
		}
		if first != "Antes" || second != "Antes" {
			t.Fatalf("answers %q then %q, want the kept Antes twice", first, second)
		}
		return true
	})
	db.AuthChanged()
	if got := nameSeen(kept); got != "Depois" {
		t.Fatalf("after a change was announced: account name %q, want Depois", got)
	}

	fresh := &service.Auth{DB: sharedDB}
	rename("Sem cache")
	if got := nameSeen(fresh); got != "Sem cache" {
		t.Fatalf("TTL 0: account name %q, want Sem cache", got)
	}

	short := &service.Auth{DB: sharedDB, TTL: 20 * time.Millisecond}
	nameSeen(short)
	rename("Expirada")
	poll.Until(t, 10*time.Second, "the kept key to expire", func() bool { return nameSeen(short) == "Expirada" })

	key, _, err := kept.Resolve(ctx, secret)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.RevokeKey(ctx, sharedDB, key.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := kept.Resolve(ctx, secret); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("a revoked key resolved: %v, want ErrUnauthorized", err)
	}
}
