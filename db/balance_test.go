package db_test

import (
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// summedBalance is the balance by its definition (docs/ledger.md): the
// locked money is the sum of every entry still locked, the next unlock the
// first lock time ahead whose entries add up to money. GetBalance reads the
// row's kept figure instead; this is what it must equal.
func summedBalance(t *testing.T, wallet string) (locked24h, withdrawable money.Cents, next *time.Time) {
	t.Helper()
	var row struct {
		Available money.Cents `db:"available"`
		Locked    money.Cents `db:"locked"`
		Next      *time.Time  `db:"next_unlock"`
	}
	if err := sharedDB.GetContext(t.Context(), &row, `
		SELECT a.balance AS available, COALESCE(sum(g.s), 0) AS locked, min(g.locked_until) FILTER (WHERE g.s > 0) AS next_unlock
		FROM ledger_accounts a LEFT JOIN (SELECT locked_until, sum(amount) AS s FROM ledger_entries
		     WHERE ledger_account_id = $1 AND locked_until > now() GROUP BY locked_until) g ON true
		WHERE a.id = $1 GROUP BY a.balance`, wallet); err != nil {
		t.Fatal(err)
	}
	locked24h, withdrawable = db.LockedPart(row.Available, row.Locked)
	if locked24h > 0 {
		next = row.Next
	}
	return locked24h, withdrawable, next
}

// TestBalanceReadsTheRowsLockedMoney holds GetBalance to the summed balance
// while the account is credited locked and unlocked money and withdraws,
// and shows which way it read it: nudging the row's kept figure moves the
// balance while the row looked at its locks less than 24 h ago, and no
// longer once that look is older (the read sums the entries then).
func TestBalanceReadsTheRowsLockedMoney(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a := newAccount(t, sharedDB, "Loja Saldo")
	wallet := domain.AvailableLedger(a.ID)
	fund(t, sharedDB, a.ID, 1000)
	post := func(amount money.Cents, lockedFor time.Duration, withdraw bool) {
		t.Helper()
		if err := postAdjustment(t, a.ID, amount, lockedFor, withdraw); err != nil {
			t.Fatal(err)
		}
	}
	same := func(step string) db.Balance {
		t.Helper()
		got, err := db.GetBalance(ctx, sharedDB, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		locked, withdrawable, next := summedBalance(t, wallet)
		if got.Locked24h != locked || got.Withdrawable != withdrawable || !sameTime(got.NextUnlockAt, next) {
			t.Fatalf("%s: balance locked %d, withdrawable %d, next %v; summed: %d, %d, %v",
				step, got.Locked24h, got.Withdrawable, got.NextUnlockAt, locked, withdrawable, next)
		}
		return got
	}
	post(500, time.Hour, false)   // locked for an hour
	post(300, 2*time.Hour, false) // and for two
	post(200, -time.Hour, false)  // its lock ended an hour ago
	post(-100, time.Hour, false)  // a locked debit (a refund of locked money)
	same("after the credits")     // locked 700, next unlock in an hour
	post(-1000, 0, true)          // a withdrawal: the guard looks at the locks now
	before := same("after the withdrawal")
	post(-100, 2*time.Hour, false) // a debit locked with the second credit: the next unlock is still the first
	same("after a second locked debit")
	post(50, 300*time.Millisecond, false)         // its lock ends after the row's last look, while the test waits
	tick := time.NewTicker(20 * time.Millisecond) // polls until the lock has ended, within a deadline
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for locked, _, _ := summedBalance(t, wallet); locked != before.Locked24h-100; locked, _, _ = summedBalance(t, wallet) {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("10 s after a lock of 300 ms, the summed balance still locks %d", locked)
		}
	}
	same("after a lock that ended since the row's last look")

	nudge := func(sql string) {
		t.Helper()
		if _, err := sharedDB.ExecContext(ctx, sql, wallet); err != nil {
			t.Fatal(err)
		}
	}
	nudge(`UPDATE ledger_accounts SET locked_total = locked_total + 7 WHERE id = $1`)
	got, err := db.GetBalance(ctx, sharedDB, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := before.Locked24h - 100 + 7; got.Locked24h != want {
		t.Fatalf("the row's figure nudged by 7: locked %d, want %d (the read did not use the row)", got.Locked24h, want)
	}
	nudge(`UPDATE ledger_accounts SET locked_as_of = now() - interval '25 hours' WHERE id = $1`)
	same("the row's look older than 24 h: the entries summed")
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// BenchmarkBalanceOfABusyMerchant reads the balance of an account holding a
// day of paid charges, all still locked (20,000 entries, their locks ending
// over the next 24 h), whose last withdrawal was a moment ago: "kept" is
// GetBalance (the row's figure), "summed" the sum over every locked entry
// that GetBalance made before.
func BenchmarkBalanceOfABusyMerchant(b *testing.B) {
	ctx := b.Context()
	a := benchAccount(b)
	wallet := domain.AvailableLedger(a.ID)
	const n = 20000
	// A day of credits in one statement: the entries, their transaction and
	// the balance row's figures, as postings would have left them.
	if _, err := sharedDB.ExecContext(ctx, `
		WITH t AS (INSERT INTO ledger_transactions (idempotency_key, account_id, kind, description)
		           VALUES ('bench-day:' || $1, $2, 'TEST', 'a day of charges') RETURNING id),
		e AS (INSERT INTO ledger_entries (ledger_transaction_id, ledger_account_id, amount, locked_until)
		      SELECT t.id, a, m, now() + g * interval '1 second' * 86400 / $3
		      FROM t, generate_series(1, $3) g,
		           LATERAL (VALUES ($1, 1000::bigint), ('platform:adjustments', -1000::bigint)) v(a, m)
		      RETURNING ledger_account_id, amount, locked_until)
		UPDATE ledger_accounts la SET balance = la.balance + d.s,
		       locked_total = la.locked_total + CASE WHEN la.id = $1 THEN d.s ELSE 0 END
		FROM (SELECT ledger_account_id, sum(amount) AS s FROM e GROUP BY ledger_account_id) d
		WHERE la.id = d.ledger_account_id`, wallet, a.ID, n); err != nil {
		b.Fatal(err)
	}
	b.Run("kept", func(b *testing.B) {
		for b.Loop() {
			if _, err := db.GetBalance(ctx, sharedDB, a.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("summed", func(b *testing.B) {
		for b.Loop() {
			var row struct {
				Locked int64      `db:"locked"`
				Next   *time.Time `db:"next_unlock"`
			}
			if err := sharedDB.GetContext(ctx, &row, `SELECT sum(g.s) AS locked, min(g.locked_until) FILTER (WHERE g.s > 0) AS next_unlock
				FROM (SELECT locked_until, sum(amount) AS s FROM ledger_entries
				      WHERE ledger_account_id = $1 AND locked_until > now() GROUP BY locked_until) g`, wallet); err != nil {
				b.Fatal(err)
			}
		}
	})
}
