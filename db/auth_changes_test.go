package db_test

import (
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/domain"
)

// Every change of an account or a key is announced on AuthChangedChannel,
// whoever makes it (here plain SQL, as an operator would), and the writers
// of this package also make the process's resolved keys stale at once. An
// UPDATE that changes nothing announces nothing.
func TestAuthChangesAreAnnounced(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	d, dsn := dbtest.NewWithURL(t)
	l := pq.NewListener(dsn, 10*time.Millisecond, time.Second, nil)
	defer l.Close()
	if err := l.Listen(db.AuthChangedChannel); err != nil {
		t.Fatal(err)
	}
	acct := newAccount(t, d, "Avisos Ltda")
	key, err := db.CreateKey(ctx, d, domain.APIKey{ID: domain.NewID("key_"), AccountID: acct.ID, Name: "k", Prefix: "jgd_live_x",
		Permissions: []string{"*"}}, []byte(domain.NewID("")))
	if err != nil {
		t.Fatal(err)
	}
	// announced counts the notifications up to a marker sent after the
	// change: they arrive in commit order, so the marker is the positive
	// sign that nothing more is coming from the change.
	announced := func(change func() error) int {
		t.Helper()
		if err := change(); err != nil {
			t.Fatal(err)
		}
		if _, err := d.ExecContext(ctx, `SELECT pg_notify($1, 'marker')`, db.AuthChangedChannel); err != nil {
			t.Fatal(err)
		}
		n := 0
		deadline := time.After(10 * time.Second)
		for {
			select {
			case ev := <-l.Notify:
				if ev == nil {
					t.Fatal("the listener reconnected: notifications may be lost")
				}
				if ev.Extra == "marker" {
					return n
				}
				n++
			case <-deadline:
				t.Fatal("no marker within 10 s")
			}
		}
	}
	verified := true
	for _, c := range []struct {
		name   string
		change func() error
		want   int
		bumps  bool
	}{
		{"the admin API's account patch", func() error {
			_, err := db.UpdateAccount(ctx, d, acct.ID, db.AccountPatch{Verified: &verified})
			return err
		}, 1, true},
		{"an account changed in SQL", func() error {
			_, err := d.ExecContext(ctx, `UPDATE accounts SET status = 'BLOCKED' WHERE id = $1`, acct.ID)
			return err
		}, 1, false},
		{"an update that changes nothing", func() error {
			_, err := d.ExecContext(ctx, `UPDATE accounts SET status = status WHERE id = $1`, acct.ID)
			return err
		}, 0, false},
		{"a key revoked", func() error {
			_, err := db.RevokeKey(ctx, d, key.ID)
			return err
		}, 1, true},
		{"a key deleted in SQL", func() error {
			_, err := d.ExecContext(ctx, `DELETE FROM api_keys WHERE id = $1`, key.ID)
			return err
		}, 1, false},
	} {
		before := db.AuthGeneration()
		if got := announced(c.change); got != c.want {
			t.Errorf("%s: %d notifications, want %d", c.name, got, c.want)
		}
		if bumped := db.AuthGeneration() != before; c.bumps && !bumped {
			t.Errorf("%s: this process's generation did not move", c.name)
		}
	}
}
