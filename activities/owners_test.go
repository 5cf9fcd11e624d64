package activities_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
)

// testOwner is a charge owner kind of these tests: its hook records what it
// saw, inside the charge's transaction, and refuses owners named "refuse".
const testOwner = "test-owner"

var (
	ownerMu   sync.Mutex
	ownerSeen = map[string][]string{} // owner id → "status/posted" per call
)

var _ = activities.RegisterChargeOwner(testOwner, activities.ChargeOwnerHook{
	Moved: func(ctx context.Context, tx *sqlx.Tx, c domain.Transaction, _ string) error {
		if c.Details.V.Owner.ID == "refuse" {
			return errors.New("owner refuses")
		}
		// The charge's settle posting is visible: the hook runs in the
		// transaction that wrote it.
		var posted bool
		if err := tx.GetContext(ctx, &posted, `SELECT EXISTS (SELECT 1 FROM ledger_transactions WHERE idempotency_key = $1)`,
			"charge:"+c.ID+":settle"); err != nil {
			return err
		}
		ownerMu.Lock()
		defer ownerMu.Unlock()
		mark := c.Status + "/unposted"
		if posted {
			mark = c.Status + "/posted"
		}
		ownerSeen[c.Details.V.Owner.ID] = append(ownerSeen[c.Details.V.Owner.ID], mark)
		return nil
	},
	Wake: func(id string) (string, string) { return "test-owner/" + id, "charge-moved" },
})

// ownedCharge stores a PENDING charge owned by testOwner's ownerID.
func (f *fixture) ownedCharge(ownerID string) domain.Transaction {
	f.t.Helper()
	c := f.newCharge(5000, 0)
	d := c.Details.V
	d.Owner = &domain.ChargeOwner{Kind: testOwner, ID: ownerID}
	if _, err := f.db.ExecContext(f.ctx, `UPDATE transactions SET details = $2 WHERE id = $1`, c.ID, domain.SomeJSON(d)); err != nil {
		f.t.Fatal(err)
	}
	return f.get(c.ID, domain.TypePixIn)
}

func seen(id string) []string {
	ownerMu.Lock()
	defer ownerMu.Unlock()
	return append([]string{}, ownerSeen[id]...)
}

func TestChargeOwnerLearnsInTheChargesTransactionOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}

	paid := f.ownedCharge(domain.NewID("own"))
	for range 2 { // the second call is a retried activity: the owner hears once
		if _, err := a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: paid.ID, Notice: paidNotice()}); err != nil {
			t.Fatal(err)
		}
	}
	f.wantEqual("paid owner saw", seen(paid.Details.V.Owner.ID), []string{"COMPLETED/posted"})

	expired := f.ownedCharge(domain.NewID("own"))
	failed := f.ownedCharge(domain.NewID("own"))
	for range 2 {
		if _, err := a.ExpireCharge(f.ctx, expired.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := a.FailCharge(f.ctx, failed.ID); err != nil {
			t.Fatal(err)
		}
	}
	f.wantEqual("expired owner saw", seen(expired.Details.V.Owner.ID), []string{"CANCELED/unposted"})
	f.wantEqual("failed owner saw", seen(failed.Details.V.Owner.ID), []string{"FAILED/unposted"})

	// The wake names the owner's workflow, with the charge's new status.
	id, signal, moved, ok := activities.ChargeOwnerWake(paid, domain.StatusCompleted)
	f.wantEqual("wake", []any{id, signal, moved, ok}, []any{"test-owner/" + paid.Details.V.Owner.ID, "charge-moved",
		activities.ChargeMoved{OwnerKind: testOwner, OwnerID: paid.Details.V.Owner.ID, ChargeID: paid.ID, Status: domain.StatusCompleted}, true})
	if _, _, _, ok := activities.ChargeOwnerWake(f.newCharge(100, 0), domain.StatusCompleted); ok {
		t.Error("a charge without an owner wakes someone")
	}
}

func TestChargeOwnerRefusalRollsTheChargeBack(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}
	c := f.ownedCharge("refuse")
	if _, err := a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: paidNotice()}); err == nil {
		t.Fatal("settle succeeded although the owner refused")
	}
	f.wantEqual("status", f.get(c.ID, domain.TypePixIn).Status, domain.StatusPending)
	f.wantEqual("postings", f.postings(c.ID), []string{})
	f.wantEqual("events", f.events(c.ID), []string{domain.EventPaymentCreated})

	// A kind no product registered is an error too, not a silent move.
	orphan := f.newCharge(100, 0)
	d := orphan.Details.V
	d.Owner = &domain.ChargeOwner{Kind: "nobody", ID: "x"}
	if _, err := f.db.ExecContext(f.ctx, `UPDATE transactions SET details = $2 WHERE id = $1`, orphan.ID, domain.SomeJSON(d)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ExpireCharge(f.ctx, orphan.ID); err == nil {
		t.Fatal("a charge of an unregistered owner kind moved")
	}
	f.wantEqual("orphan status", f.get(orphan.ID, domain.TypePixIn).Status, domain.StatusPending)
}
