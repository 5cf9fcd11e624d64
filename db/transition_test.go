package db_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// A transition's row, its ledger posting and its events are one statement:
// the row as stored comes back with the events in the order given, each
// with its own seq, and all are committed (or rolled back) together; a
// posting's key posts once, a debit beyond the balance is refused, and
// with neither posting nor events it is the plain update.
func TestWriteTransitionWritesRowPostingAndEventsTogether(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a := newAccount(t, sharedDB, "Sorveteria eventos")
	charge := domain.Transaction{ID: domain.NewID("tx_"), AccountID: a.ID, Type: domain.TypePixIn, Status: domain.StatusPending,
		Amount: 1500, NetAmount: 1500, CreatedAt: domain.NewTime(time.Now().UTC()), Details: domain.SomeJSON(domain.Details{})}
	if err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error { _, err := db.InsertTransaction(ctx, tx, charge); return err }); err != nil {
		t.Fatal(err)
	}
	paid := charge
	paid.Status, paid.CompletedAt = domain.StatusCompleted, domain.TimePtr(time.Now().UTC())
	evs := []db.NewEvent{
		{AccountID: a.ID, Type: domain.EventPaymentPaid, ResourceID: charge.ID, Data: map[string]string{"status": "COMPLETED"}},
		{AccountID: a.ID, Type: "fiscal.invoice.requested", ResourceID: "inv_1", Data: map[string]string{"id": "inv_1"}},
	}

	post := func() *db.Posting {
		return &db.Posting{Key: "charge:" + charge.ID + ":settle", AccountID: a.ID, TransactionID: charge.ID, Kind: domain.TypePixIn,
			Description: "PIX received", Entries: []db.Entry{
				{Account: domain.LedgerPixClearing, Amount: -1500},
				{Account: domain.AvailableLedger(a.ID), Amount: 1450},
				{Account: domain.LedgerFees, Amount: 50},
			}}
	}
	balance := func() (b money.Cents) {
		if err := sharedDB.GetContext(ctx, &b, `SELECT balance FROM ledger_accounts WHERE id = $1`, domain.AvailableLedger(a.ID)); err != nil {
			t.Fatal(err)
		}
		return b
	}
	before := balance()

	// Rolled back: neither the row, the posting nor the events.
	tx := sharedDB.MustBeginTx(ctx, nil)
	if _, got, err := db.WriteTransition(ctx, tx, paid, post(), evs...); err != nil || len(got) != 2 {
		t.Fatalf("update: %v, %d events", err, len(got))
	}
	tx.Rollback()
	if n := countEvents(t, sharedDB, charge.ID); n != 0 || balance() != before {
		t.Fatalf("%d events, balance %d → %d after a rollback", n, before, balance())
	}

	var out domain.Transaction
	var got []domain.Event
	err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) (err error) {
		out, got, err = db.WriteTransition(ctx, tx, paid, post(), evs...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.ID != charge.ID || out.Status != domain.StatusCompleted || out.CompletedAt == nil || out.UpdatedAt.IsZero() {
		t.Fatalf("stored row: %+v", out)
	}
	if got := balance(); got != before+1450 {
		t.Fatalf("balance %d → %d, want +1450", before, got)
	}
	if len(got) != 2 || got[0].Type != domain.EventPaymentPaid || got[1].ResourceID != "inv_1" || got[0].Seq >= got[1].Seq {
		t.Fatalf("events: %+v", got)
	}
	var data map[string]string
	if err := json.Unmarshal(got[0].Data, &data); err != nil || data["status"] != "COMPLETED" {
		t.Fatalf("event data %s: %v", got[0].Data, err)
	}
	stored, err := db.EventsFor(ctx, sharedDB, charge.ID)
	if err != nil || len(stored) != 1 || stored[0].ID != got[0].ID {
		t.Fatalf("stored events: %+v, %v", stored, err)
	}

	// The same key again (a retried step): the row and events are written,
	// the money is not moved twice.
	err = db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
		_, _, err := db.WriteTransition(ctx, tx, paid, post())
		return err
	})
	if err != nil || balance() != before+1450 {
		t.Fatalf("posting again: %v, balance %d", err, balance())
	}
	// A debit beyond the balance: refused, nothing written.
	debit := &db.Posting{Key: "debit:" + charge.ID, AccountID: a.ID, TransactionID: charge.ID, Kind: domain.TypePixOut,
		Description: "too much", Entries: []db.Entry{
			{Account: domain.AvailableLedger(a.ID), Amount: -(before + 1_000_000)},
			{Account: domain.LedgerPixClearing, Amount: before + 1_000_000},
		}}
	err = db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
		_, _, err := db.WriteTransition(ctx, tx, paid, debit, evs[0])
		return err
	})
	if !errors.Is(err, domain.ErrInsufficientBalance) || balance() != before+1450 || countEvents(t, sharedDB, charge.ID) != 1 {
		t.Fatalf("overdraft: %v, balance %d, %d events", err, balance(), countEvents(t, sharedDB, charge.ID))
	}

	// No posting, no events: the plain update.
	again := out
	again.Status = domain.StatusFailed
	err = db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
		o, none, err := db.WriteTransition(ctx, tx, again, nil)
		if err == nil && (o.Status != domain.StatusFailed || len(none) != 0) {
			t.Errorf("update without events: %+v, %d events", o, len(none))
		}
		return err
	})
	if err != nil || countEvents(t, sharedDB, charge.ID) != 1 {
		t.Fatalf("update without events: %v", err)
	}
}

// countEvents counts a resource's events (db.EventsFor).
func countEvents(t *testing.T, d *sqlx.DB, resourceID string) int {
	t.Helper()
	evs, err := db.EventsFor(t.Context(), d, resourceID)
	if err != nil {
		t.Fatal(err)
	}
	return len(evs)
}
