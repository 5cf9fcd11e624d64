package app

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/jangada/jangada/db/dbtest"
)

// TestLedgerGaugeReflectsABrokenInvariant: the gauge is 0 on a sound
// ledger and counts the violation once a balance no longer equals its
// entries.
func TestLedgerGaugeReflectsABrokenInvariant(t *testing.T) {
	d := dbtest.New(t)
	ctx := context.Background()
	if problems, err := CheckLedger(ctx, d); err != nil || len(problems) != 0 {
		t.Fatalf("sound ledger: %v %v", problems, err)
	}
	if got := testutil.ToFloat64(ledgerProblems); got != 0 {
		t.Fatalf("gauge %v on a sound ledger", got)
	}
	if testutil.ToFloat64(ledgerChecked) == 0 {
		t.Error("the last-check timestamp is not set")
	}
	// A balance written without its entries: what db.Post never does.
	if _, err := d.Exec(`UPDATE ledger_accounts SET balance = balance + 500 WHERE id = 'platform:fees'`); err != nil {
		t.Fatal(err)
	}
	problems, err := CheckLedger(ctx, d)
	if err != nil || len(problems) != 1 {
		t.Fatalf("broken ledger: %v %v", problems, err)
	}
	if got := testutil.ToFloat64(ledgerProblems); got != 1 {
		t.Fatalf("gauge %v, want 1", got)
	}
}
