package db_test

import (
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
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
	bill := func() domain.Billing {
		return domain.Billing{ID: domain.NewID("bil_"), AccountID: a.ID, Method: domain.MethodBoleto, Status: domain.BillingPending,
			Amount: 2500, NetAmount: 2500, InstallmentCount: 1, DueDate: due, PageToken: domain.NewID("pt_"), CreatedAt: domain.NewTime(time.Now().UTC()),
			Customer: domain.SomeJSON(domain.BillingCustomer{Name: "Maria Silva", TaxID: "52998224725"})}
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
