package service_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/service"
)

// fakeSimulator records the simulations asked of it.
type fakeSimulator struct {
	// Simulator answers the simulations no test here uses (nil: a call panics).
	processor.Simulator
	paid []string
}

func (f *fakeSimulator) Pay(_ context.Context, id string, _ *domain.Party) error {
	f.paid = append(f.paid, id)
	return nil
}
func (f *fakeSimulator) FailCharge(context.Context, string) error   { return nil }
func (f *fakeSimulator) ExpireCharge(context.Context, string) error { return nil }
func (f *fakeSimulator) SettleTransfer(context.Context, string, string, string) (string, error) {
	return "settled", nil
}
func (f *fakeSimulator) FailTransfer(context.Context, string) error { return nil }
func (f *fakeSimulator) SettleRefund(context.Context, string) error { return nil }
func (f *fakeSimulator) FailRefund(context.Context, string) error   { return nil }

// PIX automatic.
func (f *fakeSimulator) ApproveAuthorization(_ context.Context, id string, _ bool) error {
	f.paid = append(f.paid, id)
	return nil
}
func (f *fakeSimulator) RejectAuthorization(context.Context, string) error { return nil }

// Billings.
func (f *fakeSimulator) PayBilling(_ context.Context, id string) error {
	f.paid = append(f.paid, id)
	return nil
}
func (f *fakeSimulator) OverdueBilling(context.Context, string) error { return nil }

// MED disputes.
func (f *fakeSimulator) OpenMED(context.Context, string, money.Cents, string) (string, error) {
	return "", nil
}
func (f *fakeSimulator) ResolveMED(context.Context, string, string) error { return nil }

// The sandbox use case finds the caller's charge
// (another account's is not found, and nothing is simulated) and has the
// adapter's simulator pay it.
func TestSandboxSimulatesOnlyTheCallersResource(t *testing.T) {
	t.Parallel()
	owner, other := newAccount(t, "Owner Sandbox"), newAccount(t, "Other Sandbox")
	ch := storeTx(t, domain.Transaction{AccountID: owner.ID, Type: domain.TypePixIn, Status: domain.StatusPending, Amount: 100, NetAmount: 100})
	sim := &fakeSimulator{}
	uc := &service.Sandbox{DB: sharedDB, Simulator: sim}
	if _, err := uc.Pay(t.Context(), other, ch.ID, nil); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another account's charge: err %v, want not found", err)
	}
	r, err := uc.Pay(t.Context(), owner, ch.ID, nil)
	if err != nil || r.ID != ch.ID || r.Outcome != "paid" {
		t.Fatalf("Pay = %+v, %v; want %s paid", r, err, ch.ID)
	}
	if len(sim.paid) != 1 || sim.paid[0] != ch.ID {
		t.Fatalf("simulator paid %v, want only %s", sim.paid, ch.ID)
	}
}

// A received PIX without a refund is no refund; with the Transactions
// use case, get finds the caller's record by id and not another's.
func TestTransactionsReads(t *testing.T) {
	t.Parallel()
	owner, other := newAccount(t, "Owner Reads"), newAccount(t, "Other Reads")
	dep := storeTx(t, domain.Transaction{AccountID: owner.ID, Type: domain.TypePixIn, Status: domain.StatusCompleted, Amount: 100, NetAmount: 100})
	uc := &service.Transactions{DB: sharedDB}
	if _, err := uc.Refund(t.Context(), owner, dep.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Refund of a deposit without one: err %v, want not found", err)
	}
	if got, err := uc.Get(t.Context(), owner, dep.ID, domain.TypePixIn); err != nil || got.ID != dep.ID {
		t.Errorf("Get = %s, %v; want %s", got.ID, err, dep.ID)
	}
	if _, err := uc.Get(t.Context(), other, dep.ID, domain.TypePixIn); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Get of another account's record: err %v, want not found", err)
	}
	rows, total, err := uc.List(t.Context(), owner, service.ListFilter{Page: 1, PageSize: 10, Types: []string{domain.TypePixIn}})
	if err != nil || total != 1 || len(rows) != 1 {
		t.Errorf("List = %d rows of %d, %v; want 1 of 1", len(rows), total, err)
	}
}

// The deliveries' status filter is checked before anything is read (the
// use case has no database here), and answers 400 naming status.
func TestWebhookDeliveriesStatusFilter(t *testing.T) {
	t.Parallel()
	uc := &service.Webhooks{}
	_, _, err := uc.Deliveries(t.Context(), "whe_1", "bogus", 1, 50)
	var de *domain.Error
	if !errors.Is(err, domain.ErrInvalid) || !errors.As(err, &de) || de.Message[:6] != "status" {
		t.Fatalf("Deliveries(status bogus) = %v, want a 400 naming status", err)
	}
}

// An operator's account patch reads the stored account, merges onto it and
// stores it; a merge that refuses stores nothing.
func TestAccountsPatchMergesOntoStored(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Patch Merge")
	uc := &service.Accounts{DB: sharedDB}
	refused := domain.Invalid("fees.pixIn", "bad")
	if _, err := uc.Patch(t.Context(), acct.ID, func(domain.Account) (service.AccountPatch, error) {
		return service.AccountPatch{}, refused
	}); !errors.Is(err, refused) {
		t.Fatalf("refused merge: err %v", err)
	}
	yes := true
	got, err := uc.Patch(t.Context(), acct.ID, func(stored domain.Account) (service.AccountPatch, error) {
		if stored.ID != acct.ID {
			t.Errorf("merge got account %s, want %s", stored.ID, acct.ID)
		}
		return service.AccountPatch{Verified: &yes}, nil
	})
	if err != nil || !got.Verified {
		t.Fatalf("Patch = verified %v, %v; want verified", got.Verified, err)
	}
	if _, err := uc.Patch(t.Context(), "acc_missing", nil); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("missing account: err %v, want not found", err)
	}
}
