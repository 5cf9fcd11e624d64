package service_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

// The package's database tests share one migrated database, made by dbtest
// when a test first uses it (a database costs about a second to create, a
// test milliseconds); tests that need none run without one. Each test opens
// its own accounts and looks only at its own records.
var sharedDB *sqlx.DB

func TestMain(m *testing.M) {
	os.Exit(dbtest.RunWithShared(m, &sharedDB))
}

// newAccount opens an account with a unique e-mail and default fees.
func newAccount(t *testing.T, name string) domain.Account {
	t.Helper()
	tag := strings.ReplaceAll(domain.NewID(""), "-", "")
	a, err := service.NewAccount(t.Context(), sharedDB, name, strings.ToLower(strings.Fields(name)[0])+"-"+tag+"@example.com", "52998224725")
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// fund credits amount to an account's available money (an adjustment).
func fund(tb testing.TB, accountID string, amount money.Cents) {
	tb.Helper()
	if _, err := service.Adjust(tb.Context(), sharedDB, accountID, amount, "funding", "fund-"+accountID); err != nil {
		tb.Fatal(err)
	}
}

// storeTx writes a record directly, in the state a test needs.
func storeTx(t *testing.T, tr domain.Transaction) domain.Transaction {
	t.Helper()
	if tr.ID == "" {
		tr.ID = domain.NewID("")
	}
	if tr.CreatedAt.IsZero() {
		tr.CreatedAt = domain.NewTime(time.Now())
	}
	err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
		_, err := db.InsertTransaction(t.Context(), tx, tr)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// verifyLedger fails the test unless the ledger's invariants hold.
func verifyLedger(t *testing.T) {
	t.Helper()
	problems, err := db.VerifyLedger(context.Background(), sharedDB)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("ledger: %s", p)
	}
}
