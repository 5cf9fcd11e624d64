package db_test

import (
	"strings"
	"testing"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// The admin list finds accounts by id, or by part of the name, e-mail or
// document; LIKE's wildcards in a search are plain characters.
func TestListAccountsSearch(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	tag := strings.ToLower(domain.NewID("x")[2:14])
	a := newAccount(t, sharedDB, "Padaria "+tag)
	b := newAccount(t, sharedDB, "Mercado "+tag)
	for _, c := range []struct {
		search string
		want   []string
	}{
		{tag, []string{b.ID, a.ID}}, // newest first
		{"padaria " + strings.ToUpper(tag), []string{a.ID}},
		{a.ID, []string{a.ID}},
		{b.Email, []string{b.ID}},
		{tag + "%", nil},
		{tag + "_", nil},
	} {
		rows, total, err := db.ListAccounts(ctx, sharedDB, c.search, 1, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, r.ID)
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") || total != len(c.want) {
			t.Errorf("search %q: %v (total %d), want %v", c.search, got, total, c.want)
		}
	}
	rows, total, err := db.ListAccounts(ctx, sharedDB, "", 1, 1)
	if err != nil || len(rows) != 1 || total < 2 {
		t.Fatalf("all accounts, page of 1: %d rows of %d, %v", len(rows), total, err)
	}
}

// A migrated database reports its applied migrations and the highest.
func TestAppliedMigrations(t *testing.T) {
	t.Parallel()
	st, err := db.AppliedMigrations(t.Context(), sharedDB)
	if err != nil || st.Applied < 10 || st.Version < int64(st.Applied) {
		t.Fatalf("%+v %v", st, err)
	}
}
