package db_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// The package's database tests share one migrated database, made by dbtest
// when a test first uses it. Each test opens its own accounts and looks only
// at its own records.
var sharedDB *sqlx.DB

func TestMain(m *testing.M) {
	os.Exit(dbtest.RunWithShared(m, &sharedDB))
}

// newAccount opens an account (and its ledger accounts) with a unique
// e-mail and default fees, in d.
func newAccount(t *testing.T, d *sqlx.DB, name string) domain.Account {
	t.Helper()
	tag := strings.ReplaceAll(domain.NewID(""), "-", "")
	a, err := db.CreateAccount(t.Context(), d, domain.Account{
		ID: "acc_" + tag, Name: name, Email: strings.ToLower(strings.Fields(name)[0]) + "-" + tag + "@example.com",
		Document: "52998224725", Status: domain.AccountActive, Features: domain.DefaultFeatures(), Fees: domain.DefaultFees(),
		PixKey: domain.NewID(""),
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// fund credits amount to an account's available money (a posting against
// the platform's adjustments, as an operator's adjustment makes).
func fund(t *testing.T, d *sqlx.DB, accountID string, amount money.Cents) {
	t.Helper()
	err := db.InTx(t.Context(), d, func(tx *sqlx.Tx) error {
		_, err := db.Post(t.Context(), tx, db.Posting{Key: "fund:" + accountID + ":" + domain.NewID(""), AccountID: accountID,
			Kind: domain.TypeAdjustment, Entries: []db.Entry{
				{Account: domain.AvailableLedger(accountID), Amount: amount},
				{Account: domain.LedgerAdjustments, Amount: -amount},
			}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// postAdjustment posts amount to an account's available money against the
// platform's adjustments, locked for lockedFor from now (0: not locked;
// negative: a lock that has already ended), as a withdrawal the posting's
// guard judges when withdraw is set.
func postAdjustment(t *testing.T, accountID string, amount money.Cents, lockedFor time.Duration, withdraw bool) error {
	t.Helper()
	e := db.Entry{Account: domain.AvailableLedger(accountID), Amount: amount}
	if lockedFor != 0 {
		until := time.Now().Add(lockedFor).Truncate(time.Millisecond)
		e.LockedUntil = &until
	}
	p := db.Posting{Key: "adjustment:" + domain.NewID(""), AccountID: accountID, Kind: "TEST",
		Entries: []db.Entry{e, {Account: domain.LedgerAdjustments, Amount: -amount}}}
	if withdraw {
		p.Withdraw = &db.Withdrawal{AccountID: accountID, Amount: -amount}
	}
	return db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error { _, err := db.Post(t.Context(), tx, p); return err })
}

// storeTx writes a record directly, in the state a test needs.
func storeTx(t *testing.T, tr domain.Transaction) domain.Transaction {
	t.Helper()
	err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
		_, err := db.InsertTransaction(t.Context(), tx, tr)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
