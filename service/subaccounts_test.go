package service_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

// subFixture is an account with sub-accounts enabled, funded, with one
// sub-account holding amount, and a use case whose clock the test sets.
type subFixture struct {
	acct  domain.Account
	key   domain.APIKey
	svc   *service.Subaccounts
	sub   string
	clock time.Time
}

func newSubFixture(t *testing.T, amount money.Cents) *subFixture {
	t.Helper()
	f := &subFixture{acct: newAccount(t, "Sub Owner"), key: domain.APIKey{ID: "key_test"}}
	f.acct.Features.Subaccounts = true
	f.svc = &service.Subaccounts{DB: sharedDB, Now: func() time.Time { return f.clock }}
	f.clock = time.Now()
	fund(t, f.acct.ID, amount)
	v, err := f.svc.Create(t.Context(), f.acct, subaccount.NewSubaccount{PersonType: "PF", Name: "Ana", CPF: "52998224725",
		BirthDate: "1990-01-01", PostalCode: "01310100", ExternalReference: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	f.sub = v.ID
	if _, err := f.svc.AddBalance(t.Context(), f.acct, f.key, subaccount.Move{To: f.sub, From: f.sub, Amount: amount, ExternalReference: "seed"}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *subFixture) remove(t *testing.T, at time.Time, amount money.Cents, ref string) error {
	t.Helper()
	f.clock = at
	_, err := f.svc.RemoveBalance(t.Context(), f.acct, f.key, subaccount.Move{From: f.sub, To: f.sub, Amount: amount, ExternalReference: ref})
	return err
}

func sp(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.ParseInLocation("2006-01-02 15:04:05", s, domain.SaoPaulo)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSubaccountLimitsFollowTheSaoPauloCalendar: the daily limit resets at
// midnight in America/Sao_Paulo (03:00 UTC), not at midnight UTC, and the
// monthly one at the first of the month there.
func TestSubaccountLimitsFollowTheSaoPauloCalendar(t *testing.T) {
	t.Parallel()
	f := newSubFixture(t, 10_000)
	daily, monthly := money.Cents(1000), money.Cents(2500)
	if _, err := f.svc.SetLimits(t.Context(), f.acct, subaccount.SetLimits{ID: f.sub, Limits: subaccount.Limits{Daily: &daily, Monthly: &monthly}}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		at     string
		amount money.Cents
		ok     bool
		limit  string
	}{
		{"2026-11-28 10:00:00", 600, true, ""},
		{"2026-11-29 22:00:00", 1000, true, ""},      // 01:00 UTC on the 30th: still the 29th in São Paulo
		{"2026-11-29 23:59:59", 1, false, "daily"},   // the 29th's limit is spent
		{"2026-11-30 00:00:01", 900, true, ""},       // a new day in São Paulo; the month reaches 2500
		{"2026-11-30 10:00:00", 1, false, "monthly"}, // the day has room, the month has not
		{"2026-12-01 00:00:10", 1000, true, ""},      // a new month and day (03:00:10 UTC)
		{"2026-12-01 12:00:00", 1, false, "daily"},
	}
	for i, s := range steps {
		err := f.remove(t, sp(t, s.at), s.amount, "r"+string(rune('a'+i)))
		if s.ok != (err == nil) {
			t.Fatalf("step %d (%s, %s): err %v, want ok %v", i, s.at, s.amount, err, s.ok)
		}
		if err != nil && (!errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), s.limit)) {
			t.Fatalf("step %d: %v is not a 400 of the %s limit", i, err, s.limit)
		}
	}
	verifyLedger(t)
}

// TestSubaccountMEDHook: the hook moves available to locked once per key,
// never more than is available, and the balance shows it.
func TestSubaccountMEDHook(t *testing.T) {
	t.Parallel()
	f := newSubFixture(t, 1000)
	ctx := t.Context()
	moved, err := f.svc.HoldDisputed(ctx, f.acct.ID, f.sub, "med-1-"+f.sub, 400)
	if err != nil || moved != 400 {
		t.Fatalf("hold: %v %v", moved, err)
	}
	if again, err := f.svc.HoldDisputed(ctx, f.acct.ID, f.sub, "med-1-"+f.sub, 400); err != nil || again != 0 {
		t.Fatalf("hold again: %v %v", again, err)
	}
	_, b, err := f.svc.Get(ctx, f.acct, f.sub)
	if err != nil || b != (subaccount.Balance{SpendablePadrao: 600, AvailablePadrao: 600, LockedPadrao: 400}) {
		t.Fatalf("balance after hold: %+v %v", b, err)
	}
	if err := f.svc.Delete(ctx, f.acct, f.sub); err == nil || !strings.Contains(err.Error(), "locked 4.00") {
		t.Fatalf("delete while locked: %v", err)
	}
	if moved, _ := f.svc.HoldDisputed(ctx, f.acct.ID, f.sub, "med-2-"+f.sub, 5000); moved != 600 {
		t.Fatalf("hold beyond available moved %v", moved)
	}
	if err := f.remove(t, time.Now(), 1, "after-hold"); !errors.Is(err, domain.ErrInsufficientBalance) {
		t.Fatalf("locked money is not spendable: %v", err)
	}
	if err := f.svc.ReleaseDisputed(ctx, f.acct.ID, f.sub, "med-1-"+f.sub, 400); err != nil {
		t.Fatal(err)
	}
	if _, b, _ := f.svc.Get(ctx, f.acct, f.sub); b.AvailablePadrao != 400 || b.LockedPadrao != 600 {
		t.Fatalf("after release: %+v", b)
	}
	if _, err := f.svc.HoldDisputed(ctx, "acc_other", f.sub, "med-3", 1); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another account's sub-account: %v", err)
	}
	verifyLedger(t)
}

// TestSubaccountFeatureGate: every use case refuses an account without the
// feature before it reads anything, so this test needs no database (and the
// package's shared one is not made for it alone).
func TestSubaccountFeatureGate(t *testing.T) {
	t.Parallel()
	acct := domain.Account{ID: "acc_nosubs", Features: domain.DefaultFeatures()}
	acct.Features.Subaccounts = false
	s := &service.Subaccounts{} // no database
	_, err := s.Create(t.Context(), acct, subaccount.NewSubaccount{})
	_, _, err2 := s.Get(t.Context(), acct, "x")
	_, err3 := s.AddBalance(t.Context(), acct, domain.APIKey{}, subaccount.Move{})
	_, err4 := s.PortalStatus(t.Context(), acct, "x")
	_, _, err5 := s.ListPortals(t.Context(), acct, 1, 50)
	for _, e := range []error{err, err2, err3, err4, err5} {
		if !errors.Is(e, domain.ErrForbidden) {
			t.Fatalf("without the feature: %v", e)
		}
	}
}
