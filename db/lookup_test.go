package db_test

import (
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// A deposit is found by its id, its endToEndId or the refundId of its
// refund (locked or not), and a transaction by its id or its reference;
// another account's never. Each way of naming one is its own index lookup
// (db.GetTransaction), so this proves the lookups kept their meaning.
func TestDepositAndTransactionLookups(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a := newAccount(t, sharedDB, "Padaria lookups")
	b := newAccount(t, sharedDB, "Mercado lookups")
	e2e, ref := "E"+domain.NewID("")[:20], "ref-"+domain.NewID("")[:8]
	now := domain.NewTime(time.Now().UTC())
	dep := domain.Transaction{ID: domain.NewID(""), AccountID: a.ID, Type: domain.TypePixIn, Status: domain.StatusCompleted,
		Amount: 1000, NetAmount: 1000, EndToEndID: &e2e, ExternalReference: &ref, CreatedAt: now,
		Details: domain.SomeJSON(domain.Details{Refund: &domain.RefundBlock{Status: domain.StatusPending, RefundID: "rf-" + e2e, RequestedAt: now}})}
	other := domain.Transaction{ID: domain.NewID(""), AccountID: a.ID, Type: domain.TypePixIn, Status: domain.StatusPending,
		Amount: 500, NetAmount: 500, CreatedAt: now}
	err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) error {
		for _, x := range []domain.Transaction{dep, other} {
			if _, err := db.InsertTransaction(ctx, tx, x); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, account, ref, want string
	}{
		{"by id", a.ID, dep.ID, dep.ID},
		{"by endToEndId", a.ID, e2e, dep.ID},
		{"by refundId", a.ID, "rf-" + e2e, dep.ID},
		{"another deposit by id", a.ID, other.ID, other.ID},
		{"another account's id", b.ID, dep.ID, ""},
		{"another account's refundId", b.ID, "rf-" + e2e, ""},
		{"unknown", a.ID, "nope", ""},
	} {
		for _, lock := range []bool{false, true} {
			var got domain.Transaction
			err := db.InTx(ctx, sharedDB, func(tx *sqlx.Tx) (err error) {
				got, err = db.FindDeposit(ctx, tx, c.account, c.ref, lock)
				return err
			})
			switch {
			case c.want == "" && !errors.Is(err, domain.ErrNotFound):
				t.Errorf("FindDeposit %s (lock %v): %v, %v; want not found", c.name, lock, got.ID, err)
			case c.want != "" && (err != nil || got.ID != c.want):
				t.Errorf("FindDeposit %s (lock %v): %q, %v; want %s", c.name, lock, got.ID, err, c.want)
			}
		}
	}
	for _, c := range []struct {
		name, account, ref, want string
	}{
		{"by id", a.ID, dep.ID, dep.ID},
		{"by externalReference", a.ID, ref, dep.ID},
		{"another account's", b.ID, dep.ID, ""},
		{"by endToEndId (not a transaction's name)", a.ID, e2e, ""},
	} {
		got, err := db.GetTransaction(ctx, sharedDB, c.account, c.ref, domain.TypePixIn, domain.TypePixOut)
		switch {
		case c.want == "" && !errors.Is(err, domain.ErrNotFound):
			t.Errorf("GetTransaction %s: %v, %v; want not found", c.name, got.ID, err)
		case c.want != "" && (err != nil || got.ID != c.want):
			t.Errorf("GetTransaction %s: %q, %v; want %s", c.name, got.ID, err, c.want)
		}
	}
	if _, err := db.GetTransaction(ctx, sharedDB, a.ID, dep.ID, domain.TypePixOut); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("GetTransaction of another type: %v, want not found", err)
	}
}
