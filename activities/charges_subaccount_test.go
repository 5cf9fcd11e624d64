package activities_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.temporal.io/sdk/temporal"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

// newSub opens a sub-account under the fixture's merchant.
func (f *fixture) newSub(ref string) string {
	f.t.Helper()
	acct := f.merchant
	acct.Features.Subaccounts = true
	v, err := (&service.Subaccounts{DB: f.db}).Create(f.ctx, acct, subaccount.NewSubaccount{PersonType: "PF", Name: "Ana",
		CPF: "52998224725", BirthDate: "1990-01-01", PostalCode: "01310100", ExternalReference: ref})
	if err != nil {
		f.t.Fatal(err)
	}
	return v.ID
}

// subCharge is a charge of amount to sub as service.Charges.Create builds it
// (not stored).
func (f *fixture) subCharge(amount money.Cents, sub string) domain.Transaction {
	fee := f.merchant.Fees.PixIn(amount)
	return domain.Transaction{
		ID: domain.NewID(""), AccountID: f.merchant.ID, APIKeyID: ptr("key_test"), Type: domain.TypePixIn, Status: domain.StatusPending,
		Amount: amount, FeeAmount: fee, NetAmount: amount - fee, Description: "Pedido 7", SubaccountID: &sub,
		ReferenceID: ptr("sbx_ref"), CopyPaste: ptr("000201"), CreatedAt: domain.NewTime(time.Now().UTC()),
	}
}

// TestSettleChargeOfDeletedSubaccountCreditsMain: a charge
// whose sub-account was deleted before it was paid (a charge from before
// the insert's guard) credits the main account, and its statement line
// says why; its later postings (a refund) follow the main account.
func TestSettleChargeOfDeletedSubaccountCreditsMain(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sub := f.newSub("gone")
	c := f.subCharge(10_000, sub)
	if _, err := activities.InsertCharge(f.ctx, f.db, c, publicURL, nil); err != nil {
		t.Fatal(err)
	}
	// Deleted behind the use case's back, as before the delete counted open charges.
	f.inTx(func(tx *sqlx.Tx) error { return db.DeleteSubaccount(f.ctx, tx, sub) })

	a := &activities.Charges{Base: f.base()}
	for i := range 2 { // the second call is a retried activity
		status, err := a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: paidNotice()})
		if err != nil || status != domain.StatusCompleted {
			t.Fatalf("SettleCharge #%d: %s %v", i+1, status, err)
		}
	}
	got := f.get(c.ID, domain.TypePixIn)
	if got.SubaccountID != nil {
		t.Errorf("the charge still names the deleted sub-account %s", *got.SubaccountID)
	}
	if !strings.Contains(got.Description, "Pedido 7") || !strings.Contains(got.Description, "sub-account "+sub+" was deleted: credited to the main account") {
		t.Errorf("description %q does not say where the money went", got.Description)
	}
	if got.Wallet() != f.merchant.ID {
		t.Errorf("wallet %s, want the main account", got.Wallet())
	}
	f.wantEqual("main available", f.balance(f.merchant.ID).Available, c.NetAmount)
	f.wantEqual("deleted sub-account available", f.balance(sub).Available, money.Cents(0))
	var desc string
	if err := f.db.GetContext(f.ctx, &desc, `SELECT description FROM ledger_transactions WHERE transaction_id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(desc, "credited to the main account") {
		t.Errorf("posting description %q", desc)
	}
}

// TestInsertChargeRequiresALiveUnlockedSubaccount: the charge insert itself
// refuses a deleted sub-account (404) and one whose status or lock mode
// refuses a charge (400 naming them), and writes nothing; a retried insert
// of a charge that exists still answers without an error.
func TestInsertChargeRequiresALiveUnlockedSubaccount(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	live := f.newSub("live")
	first := f.subCharge(1_000, live)
	if ev, err := activities.InsertCharge(f.ctx, f.db, first, publicURL, nil); err != nil || ev == nil {
		t.Fatalf("insert: %v %v", ev, err)
	}
	if ev, err := activities.InsertCharge(f.ctx, f.db, first, publicURL, nil); err != nil || ev != nil {
		t.Fatalf("the same insert again: %v %v, want no event and no error", ev, err)
	}

	set := func(sub, column, value string) {
		if _, err := f.db.ExecContext(f.ctx, `UPDATE subaccounts SET `+column+` = $2 WHERE id = $1`, sub, value); err != nil {
			t.Fatal(err)
		}
	}
	deleted := f.newSub("deleted")
	f.inTx(func(tx *sqlx.Tx) error { return db.DeleteSubaccount(f.ctx, tx, deleted) })
	locked, disabled := f.newSub("locked"), f.newSub("disabled")
	set(locked, "lock_mode", subaccount.LockFull)
	set(disabled, "status", subaccount.StatusDisabled)
	for _, c := range []struct {
		sub  string
		kind error
		says string
	}{
		{deleted, domain.ErrNotFound, "sub-account not found"},
		{locked, domain.ErrInvalid, "locked (full): a charge is refused"},
		{disabled, domain.ErrInvalid, "DISABLED: a charge is refused"},
		{"sub_of_nobody", domain.ErrNotFound, "sub-account not found"},
	} {
		ch := f.subCharge(1_000, c.sub)
		ev, err := activities.InsertCharge(f.ctx, f.db, ch, publicURL, nil)
		if ev != nil || !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("charge to %s: %v %v, want %v saying %q", c.sub, ev, err, c.kind, c.says)
		}
		if _, err := db.TransactionByID(f.ctx, f.db, ch.ID, domain.TypePixIn); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("a refused charge was stored: %v", err)
		}
	}
	// The workflow's guard meets the same refusal as a failure no retry can
	// fix (a charge workflow of a history recorded before deferred starts).
	err := (&activities.Charges{Base: f.base()}).EnsureCharge(f.ctx, f.subCharge(1_000, deleted))
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || !app.NonRetryable() || !strings.Contains(app.Error(), "sub-account not found") {
		t.Errorf("EnsureCharge into a deleted sub-account: %v, want a non-retryable refusal", err)
	}
}
