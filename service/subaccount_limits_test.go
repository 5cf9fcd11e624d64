package service_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/sandbox"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
)

// newSubPix is newSubFixture with PIX on sub-accounts enabled.
func newSubPix(t *testing.T, amount money.Cents) *subFixture {
	t.Helper()
	f := newSubFixture(t, amount)
	f.acct.Features.SubaccountPix = true
	return f
}

// anyTemporal is a mocked Temporal that accepts every workflow start.
func anyTemporal(t *testing.T) *servicemock.MockTemporal {
	m := servicemock.NewMockTemporal(gomock.NewController(t))
	m.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil).AnyTimes()
	return m
}

func subPixOut(sub string, amount money.Cents, key string) domain.NewTransfer {
	return domain.NewTransfer{Amount: amount, Description: "fornecedor", PixKey: "a@b.co", PixKeyType: "EMAIL", CoverFee: true,
		SubaccountID: sub, IdempotencyKey: key}
}

func (f *subFixture) setDaily(t *testing.T, daily money.Cents) {
	t.Helper()
	if _, err := f.svc.SetLimits(t.Context(), f.acct, subaccount.SetLimits{ID: f.sub, Limits: subaccount.Limits{Daily: &daily}}); err != nil {
		t.Fatal(err)
	}
}

// wantLimit fails unless err is the 400 of the named limit.
func wantLimit(t *testing.T, what string, err error, limit string) {
	t.Helper()
	if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), limit+" limit") {
		t.Fatalf("%s: %v, want a 400 of the %s limit", what, err, limit)
	}
}

// TestSubaccountPixOutLimitCountsReservedMoney: money
// counts against a limit from the moment it is reserved. Twenty concurrent
// PIX outs of 10.00 against a daily limit of 100.00: exactly ten pass. The
// next one, sent while the ten are still PENDING (in their settlement
// window), is refused; a FAILED one gives its room back.
func TestSubaccountPixOutLimitCountsReservedMoney(t *testing.T) {
	t.Parallel()
	f := newSubPix(t, 100_000)
	f.setDaily(t, 10_000)
	transfers := &service.Transfers{DB: sharedDB, Temporal: anyTemporal(t), TaskQueue: taskQueue, PublicURL: "https://api.jangada.test"}

	var mu sync.Mutex
	var passed []domain.Transaction
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr, err := transfers.Create(context.Background(), f.acct, f.key, subPixOut(f.sub, 1_000, fmt.Sprintf("race-%d", i)))
			if err != nil {
				if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "daily limit") {
					t.Errorf("PIX out %d: %v, want ok or the daily limit", i, err)
				}
				return
			}
			mu.Lock()
			passed = append(passed, tr)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(passed) != 10 {
		t.Fatalf("%d of 20 concurrent PIX outs of 10.00 passed a daily limit of 100.00, want 10", len(passed))
	}
	for _, tr := range passed {
		if tr.Status != domain.StatusPending {
			t.Fatalf("transfer %s is %s, want PENDING (reserved, not settled)", tr.ID, tr.Status)
		}
	}

	// Sequential, inside the ten's settlement window: still refused.
	_, err := transfers.Create(t.Context(), f.acct, f.key, subPixOut(f.sub, 1_000, "after"))
	wantLimit(t, "an 11th PIX out while ten are PENDING", err, "daily")

	// A FAILED PIX out gives its room back, once.
	fail := &activities.Transfers{Base: activities.Base{DB: sharedDB, PublicURL: "https://api.jangada.test"}}
	if err := fail.FailTransfer(t.Context(), activities.FailInput{ID: passed[0].ID, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := transfers.Create(t.Context(), f.acct, f.key, subPixOut(f.sub, 1_000, "room-back")); err != nil {
		t.Fatalf("a PIX out in the room a FAILED one gave back: %v", err)
	}
	_, err = transfers.Create(t.Context(), f.acct, f.key, subPixOut(f.sub, 1, "full-again"))
	wantLimit(t, "a PIX out once the room is taken again", err, "daily")
	verifyLedger(t)
}

// TestSubaccountLimitCountsPixOutHeldForReview: a PIX out held for the
// operator's security review is reserved, so it counts.
func TestSubaccountLimitCountsPixOutHeldForReview(t *testing.T) {
	t.Parallel()
	f := newSubPix(t, 100_000)
	f.setDaily(t, 10_000)
	th := money.Cents(5_000)
	f.acct.SecurityReviewThreshold = &th
	transfers := &service.Transfers{DB: sharedDB, Temporal: anyTemporal(t), TaskQueue: taskQueue, PublicURL: "https://api.jangada.test"}
	held, err := transfers.Create(t.Context(), f.acct, f.key, subPixOut(f.sub, 6_000, "held"))
	if err != nil {
		t.Fatal(err)
	}
	if r := held.Details.V.SecurityReview; held.Status != domain.StatusPending || r == nil || !r.Pending {
		t.Fatalf("held = %s %+v, want PENDING under review", held.Status, held.Details.V.SecurityReview)
	}
	if _, err := transfers.Create(t.Context(), f.acct, f.key, subPixOut(f.sub, 4_000, "fits")); err != nil {
		t.Fatalf("4.00 beside 6.00 held, daily 100.00: %v", err)
	}
	_, err = transfers.Create(t.Context(), f.acct, f.key, subPixOut(f.sub, 1, "over"))
	wantLimit(t, "a PIX out beyond the held one", err, "daily")
}

// TestSubaccountLimitsCountByReservation pins which records count, and in
// which period: every debit type, PENDING, PROCESSING and COMPLETED but not
// FAILED, in the period of its created_at (the moment it was reserved),
// whatever its completed_at.
func TestSubaccountLimitsCountByReservation(t *testing.T) {
	t.Parallel()
	f := newSubFixture(t, 1_000)
	now := sp(t, "2026-11-20 12:00:00")
	yesterday, lastMonth := now.AddDate(0, 0, -1), now.AddDate(0, -1, 0)
	rec := func(typ, status string, amount money.Cents, created time.Time, completed *time.Time) {
		r := domain.Transaction{AccountID: f.acct.ID, SubaccountID: &f.sub, Type: typ, Status: status, Amount: amount,
			NetAmount: amount, CreatedAt: domain.NewTime(created)}
		if completed != nil {
			r.CompletedAt = domain.TimePtr(*completed)
		}
		storeTx(t, r)
	}
	rec(domain.TypePixOut, domain.StatusPending, 100, now, nil)
	rec(domain.TypePixOut, domain.StatusProcessing, 200, now, nil)
	rec(domain.TypePixOut, domain.StatusFailed, 5_000, now, nil)                 // gave its room back
	rec(domain.TypeRefund, domain.StatusPending, 400, now, nil)                  // a refund is a debit
	rec(subaccount.TypeRemoveBalance, domain.StatusCompleted, 800, now, &now)    // a move
	rec(domain.TypePixIn, domain.StatusCompleted, 9_000, now, &now)              // a credit: not a debit
	rec(subaccount.TypeAddBalance, domain.StatusCompleted, 9_000, now, &now)     // a credit
	rec(domain.TypePixOut, domain.StatusCompleted, 1_600, yesterday, &now)       // reserved yesterday, settled today
	rec(domain.TypePixOut, domain.StatusCompleted, 3_200, lastMonth, &yesterday) // last month's
	w := subaccount.WindowAt(now)
	for _, c := range []struct {
		name     string
		from, to time.Time
		want     money.Cents
	}{
		{"day", w.DayStart, w.DayEnd, 100 + 200 + 400 + 800},
		{"month", w.MonthStart, w.MonthEnd, 100 + 200 + 400 + 800 + 1_600},
	} {
		got, err := db.SpentBetween(t.Context(), sharedDB, f.sub, c.from, c.to)
		if err != nil || got != c.want {
			t.Errorf("%s: spent %v (%v), want %v", c.name, got, err, c.want)
		}
	}
	// And CheckLimits reads the same figures under the row lock.
	daily, monthly := money.Cents(1_600), money.Cents(3_200)
	err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
		subs, err := db.LockSubaccounts(t.Context(), tx, f.acct.ID, []string{"id"}, f.sub)
		if err != nil {
			return err
		}
		subs[0].LimitDaily, subs[0].LimitMonthly = &daily, &monthly
		if err := service.CheckLimits(t.Context(), tx, subs[0], 100, now); err != nil {
			return fmt.Errorf("1.00 into 16.00 a day with 15.00 reserved: %w", err)
		}
		wantLimit(t, "1.01 into the day", service.CheckLimits(t.Context(), tx, subs[0], 101, now), "daily")
		subs[0].LimitDaily = nil
		wantLimit(t, "1.01 into the month", service.CheckLimits(t.Context(), tx, subs[0], 101, now), "monthly")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// subDeposit stores a COMPLETED deposit of 10.00 credited to sub (its
// money is already in the sub-account: the fixture's seed pays the refund).
func subDeposit(t *testing.T, acct domain.Account, sub string) domain.Transaction {
	t.Helper()
	e2e := "E" + strings.ReplaceAll(domain.NewID(""), "-", "")[:31]
	return storeTx(t, domain.Transaction{AccountID: acct.ID, SubaccountID: &sub, Type: domain.TypePixIn, Status: domain.StatusCompleted,
		Amount: 1_000, FeeAmount: 50, NetAmount: 950, EndToEndID: &e2e, CompletedAt: domain.TimePtr(time.Now())})
}

// setMode puts the fixture's sub-account in a lock mode, or DISABLED.
func (f *subFixture) setMode(t *testing.T, mode string) {
	t.Helper()
	var err error
	switch mode {
	case subaccount.LockNone:
		_, err = f.svc.Unlock(t.Context(), f.acct, f.sub)
	case subaccount.StatusDisabled:
		st := subaccount.StatusDisabled
		_, err = f.svc.Update(t.Context(), f.acct, subaccount.Update{ID: f.sub, Status: &st})
	default:
		_, err = f.svc.Lock(t.Context(), f.acct, subaccount.Lock{ID: f.sub, Mode: mode})
	}
	if err != nil {
		t.Fatalf("set %s: %v", mode, err)
	}
}

// lockModes are the rows of the lock table, plus DISABLED.
var lockModes = []string{subaccount.LockNone, subaccount.LockFull, subaccount.LockWithdrawOnly, subaccount.LockDepositOnly, subaccount.StatusDisabled}

// allows is the lock table's answer for a row of lockModes.
func allows(mode string, op subaccount.Op) bool {
	return mode != subaccount.StatusDisabled && subaccount.Allows(mode, op)
}

// TestSubaccountRefundLockTable: a refund of a deposit
// credited to a sub-account is a debit of it: every row of the lock table
// (and DISABLED) rules on it as on a PIX out, and refused it reserves
// nothing; unlocked, the same refund goes through.
func TestSubaccountRefundLockTable(t *testing.T) {
	t.Parallel()
	for _, mode := range lockModes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			f := newSubPix(t, 10_000)
			refunds := &service.Refunds{DB: sharedDB, Temporal: anyTemporal(t), TaskQueue: taskQueue, PublicURL: "https://api.jangada.test"}
			d := subDeposit(t, f.acct, f.sub)
			f.setMode(t, mode)
			ask := func() error {
				_, err := refunds.Create(t.Context(), f.acct, domain.NewRefund{DepositRef: d.ID, Amount: 1_000, Nature: "ORIGINAL"})
				return err
			}
			err := ask()
			if allows(mode, subaccount.OpRefund) {
				if err != nil {
					t.Fatalf("refund under %s: %v, want it to go through", mode, err)
				}
				return
			}
			if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), subaccount.OpRefund.String()) {
				t.Fatalf("refund under %s: %v, want a 400 naming the refund", mode, err)
			}
			if _, b, _ := f.svc.Get(t.Context(), f.acct, f.sub); b.PendingPadrao != 0 || b.AvailablePadrao != 10_000 {
				t.Fatalf("a refused refund moved money: %+v", b)
			}
			if mode == subaccount.StatusDisabled {
				active := subaccount.StatusActive
				_, err = f.svc.Update(t.Context(), f.acct, subaccount.Update{ID: f.sub, Status: &active})
			} else {
				_, err = f.svc.Unlock(t.Context(), f.acct, f.sub)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := ask(); err != nil {
				t.Fatalf("refund once %s is lifted: %v", mode, err)
			}
		})
	}
}

// TestSubaccountRefundCountsAgainstLimits: a refund from a sub-account
// takes room under its limits, and needs room under them.
func TestSubaccountRefundCountsAgainstLimits(t *testing.T) {
	t.Parallel()
	f := newSubPix(t, 10_000)
	f.setDaily(t, 1_500)
	refunds := &service.Refunds{DB: sharedDB, Temporal: anyTemporal(t), TaskQueue: taskQueue, PublicURL: "https://api.jangada.test"}
	transfers := &service.Transfers{DB: sharedDB, Temporal: anyTemporal(t), TaskQueue: taskQueue, PublicURL: "https://api.jangada.test"}
	first := subDeposit(t, f.acct, f.sub)
	if _, err := refunds.Create(t.Context(), f.acct, domain.NewRefund{DepositRef: first.ID, Amount: 1_000, Nature: "ORIGINAL"}); err != nil {
		t.Fatal(err)
	}
	var line domain.Transaction
	if err := sharedDB.GetContext(t.Context(), &line, `SELECT id, subaccount_id, amount FROM transactions
		WHERE type = $1 AND details->>'depositId' = $2`, domain.TypeRefund, first.ID); err != nil {
		t.Fatal(err)
	}
	if line.SubaccountID == nil || *line.SubaccountID != f.sub {
		t.Fatalf("the refund's statement line names sub-account %v, want %s", line.SubaccountID, f.sub)
	}
	_, err := transfers.Create(t.Context(), f.acct, f.key, subPixOut(f.sub, 1_000, "after-refund"))
	wantLimit(t, fmt.Sprintf("a PIX out of 10.00 after a refund of %s, daily 15.00", line.Amount), err, "daily")
	second := subDeposit(t, f.acct, f.sub)
	_, err = refunds.Create(t.Context(), f.acct, domain.NewRefund{DepositRef: second.ID, Amount: 1_000, Nature: "ORIGINAL"})
	wantLimit(t, "a second refund", err, "daily")
	verifyLedger(t)
}

// subChargeRig is Charges on the sandbox's BR Codes with Temporal accepting
// every start, for sub-account tests that create many charges.
func subChargeRig(t *testing.T) *service.Charges {
	r := newChargeRig(t)
	r.processor.EXPECT().NewCharge(gomock.Any(), gomock.Any()).DoAndReturn(
		func(ctx context.Context, req processor.ChargeRequest) (processor.ChargeQR, error) {
			return (&sandbox.Sandbox{}).NewCharge(ctx, req)
		}).AnyTimes()
	r.temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil).AnyTimes()
	return r.charges
}

// TestChargeRacingDeleteOfItsSubaccount: a charge created
// while its sub-account is deleted either is refused with a 4xx (the
// sub-account is gone) or makes the delete refuse (a charge is still
// payable): never both succeed, so no charge is left payable into a deleted
// sub-account.
func TestChargeRacingDeleteOfItsSubaccount(t *testing.T) {
	t.Parallel()
	f := newSubPix(t, 1_000)
	charges := subChargeRig(t)
	outcomes := map[string]int{}
	for round := range 40 {
		v, err := f.svc.Create(t.Context(), f.acct, subaccount.NewSubaccount{PersonType: "PF", Name: "Bia", CPF: "52998224725",
			BirthDate: "1990-01-01", PostalCode: "01310100", ExternalReference: fmt.Sprintf("race-%d", round)})
		if err != nil {
			t.Fatal(err)
		}
		in := newCharge(1000)
		in.SubaccountID = v.ID
		var chargeErr, deleteErr error
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, chargeErr = charges.Create(context.Background(), f.acct, f.key, in)
		}()
		go func() {
			defer wg.Done()
			deleteErr = f.svc.Delete(context.Background(), f.acct, v.ID)
		}()
		wg.Wait()
		switch {
		case chargeErr == nil && deleteErr == nil:
			t.Fatalf("round %d: the charge and the delete both succeeded", round)
		case chargeErr == nil:
			if !errors.Is(deleteErr, domain.ErrInvalid) || !strings.Contains(deleteErr.Error(), "still payable") {
				t.Fatalf("round %d: delete refused with %v, want the open charge", round, deleteErr)
			}
			outcomes["charge won"]++
		case deleteErr == nil:
			if !errors.Is(chargeErr, domain.ErrNotFound) || !strings.Contains(chargeErr.Error(), "sub-account") {
				t.Fatalf("round %d: charge refused with %v, want a 404 of the sub-account", round, chargeErr)
			}
			outcomes["delete won"]++
		default:
			t.Fatalf("round %d: both refused: charge %v, delete %v", round, chargeErr, deleteErr)
		}
	}
	var stranded int
	if err := sharedDB.GetContext(t.Context(), &stranded, `SELECT count(*) FROM transactions t JOIN subaccounts s ON s.id = t.subaccount_id
		WHERE s.account_id = $1 AND s.deleted_at IS NOT NULL AND t.type = $2`, f.acct.ID, domain.TypePixIn); err != nil {
		t.Fatal(err)
	}
	if stranded != 0 {
		t.Fatalf("%d charges in deleted sub-accounts", stranded)
	}
	t.Logf("40 rounds: %v", outcomes)
}

// TestSubaccountChargesUnderLocks: a new charge to a
// sub-account is refused under the modes that lock deposits (and DISABLED),
// by the insert itself; a charge created before the lock still credits the
// sub-account when paid, whatever the lock (docs/ledger.md): the payer's
// money lands on the wallet it was promised to, where the lock then holds it.
func TestSubaccountChargesUnderLocks(t *testing.T) {
	t.Parallel()
	for _, mode := range lockModes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			f := newSubPix(t, 1_000)
			charges := subChargeRig(t)
			in := newCharge(1000)
			in.SubaccountID = f.sub
			before, err := charges.Create(t.Context(), f.acct, f.key, in)
			if err != nil {
				t.Fatal(err)
			}
			f.setMode(t, mode)

			// A charge created now: the use case's check, and the insert's own
			// (what a create that passed the first check before the lock meets).
			late := before.Charge
			late.ID, late.ExternalReference, late.CreatedAt = domain.NewID(""), nil, domain.NewTime(time.Now())
			_, insertErr := activities.InsertCharge(t.Context(), sharedDB, late, "https://api.jangada.test", nil)
			_, createErr := charges.Create(t.Context(), f.acct, f.key, in)
			for what, err := range map[string]error{"insert": insertErr, "create": createErr} {
				if allows(mode, subaccount.OpCharge) {
					if err != nil {
						t.Errorf("%s of a charge under %s: %v", what, mode, err)
					}
				} else if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), subaccount.OpCharge.String()) {
					t.Errorf("%s of a charge under %s: %v, want a 400 naming the charge", what, mode, err)
				}
			}

			settle := &activities.Charges{Base: activities.Base{DB: sharedDB, PublicURL: "https://api.jangada.test"}}
			at := time.Now().UTC()
			if _, err := settle.SettleCharge(t.Context(), activities.SettleChargeInput{ChargeID: before.Charge.ID, Notice: processor.ChargeNotice{
				Outcome: processor.OutcomePaid, EndToEndID: processor.EndToEndID("99999908", at), At: at}}); err != nil {
				t.Fatal(err)
			}
			_, b, err := f.svc.Get(t.Context(), f.acct, f.sub)
			if err != nil || b.AvailablePadrao != 1_000+before.Charge.NetAmount {
				t.Fatalf("sub-account after the earlier charge was paid under %s: %+v (%v), want %s more available", mode, b, err, before.Charge.NetAmount)
			}
			verifyLedger(t)
		})
	}
}
