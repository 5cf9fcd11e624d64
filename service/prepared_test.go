package service_test

import (
	"errors"
	"testing"

	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

// The key lookup every request runs is a prepared statement, prepared once
// per connection and reused: planning it each time cost PostgreSQL more
// CPU than running it.
func TestKeyLookupIsPreparedOncePerConnection(t *testing.T) {
	d := dbtest.New(t)
	d.SetMaxOpenConns(1) // one connection, so its session is the one we look at
	ctx := t.Context()
	acct, err := service.NewAccount(ctx, d, "Prepared Ltda", "prepared@example.com", "52998224725")
	if err != nil {
		t.Fatal(err)
	}
	key, secret, err := service.NewKey(ctx, d, acct.ID, domain.NewKey{Name: "k", Permissions: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	auth := service.Auth{DB: d}
	for range 3 {
		k, a, err := auth.Resolve(ctx, secret)
		if err != nil {
			t.Fatal(err)
		}
		if k.ID != key.ID || a.ID != acct.ID {
			t.Fatalf("resolved key %s of %s, want %s of %s", k.ID, a.ID, key.ID, acct.ID)
		}
	}
	if _, _, err := auth.Resolve(ctx, secret+"x"); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("unknown secret: %v, want ErrUnauthorized", err)
	}
	var n int
	if err := d.GetContext(ctx, &n, `SELECT count(*) FROM pg_prepared_statements
		WHERE statement LIKE '%FROM api_keys k JOIN accounts a%' AND statement NOT LIKE '%pg_prepared_statements%'`); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("the connection holds %d prepared key lookups, want 1", n)
	}
}
