package db_test

import (
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
)

// A billing with a workflow is stored with its workflow's intent in one
// statement, outside any transaction: both or neither. A second insert of
// the same id (a retried create) writes nothing and reports it; an insert
// without an intent writes none.
func TestInsertBillingWritesItsIntentInTheSameStatement(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a := newAccount(t, sharedDB, "Padaria boletos")
	due := time.Now().AddDate(0, 0, 3)
	bill := func() billing.Billing {
		return billing.Billing{ID: domain.NewID("bil_"), AccountID: a.ID, Method: domain.MethodBoleto, Status: billing.BillingPending,
			Amount: 2500, NetAmount: 2500, InstallmentCount: 1, DueDate: due, PageToken: domain.NewID("pt_"), CreatedAt: domain.NewTime(time.Now().UTC()),
			Customer: domain.SomeJSON(billing.BillingCustomer{Name: "Maria Silva", TaxID: "52998224725"})}
	}
	intents := func(id string) (n int) {
		if err := sharedDB.GetContext(ctx, &n, `SELECT count(*) FROM workflow_launches WHERE kind = 'billing' AND resource_id = $1`, id); err != nil {
			t.Fatal(err)
		}
		return n
	}
	intent := &db.Intent{Kind: "billing", Grace: time.Minute}

	b := bill()
	for i, want := range []bool{true, false} {
		fresh, err := db.InsertBilling(ctx, sharedDB, b, intent)
		if err != nil || fresh != want {
			t.Fatalf("insert %d: fresh %v, %v; want %v", i+1, fresh, err, want)
		}
	}
	if got, err := db.BillingByID(ctx, sharedDB, b.ID); err != nil || got.Amount != b.Amount {
		t.Fatalf("stored billing: %+v, %v", got, err)
	}
	if n := intents(b.ID); n != 1 {
		t.Fatalf("%d intents for the billing; want 1", n)
	}

	alone := bill()
	if fresh, err := db.InsertBilling(ctx, sharedDB, alone, nil); err != nil || !fresh {
		t.Fatalf("insert without intent: %v, %v", fresh, err)
	}
	if n := intents(alone.ID); n != 0 {
		t.Fatalf("%d intents for a billing inserted without one; want 0", n)
	}
}

// A PIX billing's row is written in its charge's one statement, and only
// with the charge: a second attempt (the charge exists) writes no row, not
// even one with a new id, so a billing never exists without its charge
// being written by the same statement.
func TestBillingRowIsWrittenOnlyWithItsCharge(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a := newAccount(t, sharedDB, "Padaria PIX billings")
	now := domain.NewTime(time.Now().UTC())
	charge := domain.Transaction{ID: domain.NewID(""), AccountID: a.ID, Type: domain.TypePixIn, Status: domain.StatusPending,
		Amount: 2500, NetAmount: 2500, CreatedAt: now}
	bill := func() billing.Billing {
		return billing.Billing{ID: domain.NewID("bil_"), AccountID: a.ID, Method: domain.MethodPix, Status: billing.BillingPending,
			Amount: 2500, NetAmount: 2500, InstallmentCount: 1, DueDate: time.Now().AddDate(0, 0, 3), PageToken: domain.NewID("pt_"),
			ChargeID: &charge.ID, CreatedAt: now, Customer: domain.SomeJSON(billing.BillingCustomer{Name: "Maria Silva", TaxID: "52998224725"})}
	}
	ev := db.NewEvent{AccountID: a.ID, Type: domain.EventPaymentCreated, ResourceID: charge.ID, Data: map[string]string{"id": charge.ID}}
	first, retry := bill(), bill()
	for _, c := range []struct {
		b           billing.Billing
		wantEvent   bool
		wantWritten bool
	}{{first, true, true}, {retry, false, false}} {
		row := db.BillingRow(c.b)
		got, written, err := db.FirstRecordsWithOwner(ctx, sharedDB, charge, ev, nil, &row)
		if err != nil || (got != nil) != c.wantEvent || written != c.wantWritten {
			t.Fatalf("billing %s: event %v, written %v, %v; want event %v, written %v", c.b.ID, got != nil, written, err, c.wantEvent, c.wantWritten)
		}
	}
	if got, err := db.BillingByID(ctx, sharedDB, first.ID); err != nil || *got.ChargeID != charge.ID {
		t.Fatalf("the first billing: %+v, %v", got, err)
	}
	if _, err := db.BillingByID(ctx, sharedDB, retry.ID); err == nil {
		t.Fatal("a billing was written beside a charge that already existed")
	}
}
