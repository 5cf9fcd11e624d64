package service_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
)

// A retried internal transfer whose first answer was lost pays once: under
// an Idempotency-Key every id of the transfer is derived from the key, and
// the retry answers with the transfer the first attempt made. The key
// reused for another amount is a 400 naming it.
func TestRetriedInternalTransferPaysOnce(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	from, to := newAccount(t, "Loja Paga"), newAccount(t, "Loja Recebe")
	fund(t, from.ID, 10_000)
	internal := &service.Internal{DB: sharedDB, PublicURL: "https://api.jangada.test"}
	key := domain.APIKey{ID: "key_1"}
	in := domain.NewInternal{IdempotencyKey: "key_1 lost-answer", Amount: 3_000, RecipientEmail: to.Email, Description: "x"}
	a, err := internal.Create(ctx, from, key, in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := internal.Create(ctx, from, key, in)
	if err != nil || b.ID != a.ID {
		t.Fatalf("retry: %s %v, want the first transfer %s", b.ID, err, a.ID)
	}
	in.Amount = 3_001
	if _, err := internal.Create(ctx, from, key, in); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "Idempotency-Key") {
		t.Fatalf("the key for another amount: %v, want a 400 naming Idempotency-Key", err)
	}
	for acct, want := range map[string]int64{from.ID: 7_000, to.ID: 3_000} {
		bal, err := db.GetBalance(ctx, sharedDB, acct)
		if err != nil || int64(bal.Available) != want {
			t.Fatalf("balance of %s: %+v (%v), want %d: one transfer", acct, bal, err, want)
		}
	}
	verifyLedger(t)
}

// A move's externalReference is its idempotency key: the same body answers
// with the first move, another amount or recipient is a 400 naming the
// field, for internal transfers, PIX outs and sub-account moves alike.
func TestExternalReferenceReusedForAnotherMoveIsRefused(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	transfers, temporal, acct := newTransfers(t, "Loja Referencia")
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil).AnyTimes()
	key := domain.APIKey{ID: "key_1"}
	ref := "pedido-1"
	out := pixOut("")
	out.ExternalReference = &ref
	first, err := transfers.Create(ctx, acct, key, out)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := transfers.Create(ctx, acct, key, out); err != nil || again.ID != first.ID {
		t.Fatalf("same body again: %s %v, want %s", again.ID, err, first.ID)
	}
	other := out
	other.Amount++
	if _, err := transfers.Create(ctx, acct, key, other); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "externalReference") {
		t.Fatalf("another amount: %v, want a 400 naming externalReference", err)
	}
	other = out
	other.PixKey = "c@d.co"
	if _, err := transfers.Create(ctx, acct, key, other); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("another key: %v, want a 400", err)
	}

	to := newAccount(t, "Loja Destino")
	internal := &service.Internal{DB: sharedDB}
	iref := "interno-1"
	in := domain.NewInternal{Amount: 1_000, RecipientEmail: to.Email, ExternalReference: &iref}
	if _, err := internal.Create(ctx, acct, key, in); err != nil {
		t.Fatal(err)
	}
	in.RecipientEmail = acct.Email
	if _, err := internal.Create(ctx, acct, key, in); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "externalReference") {
		t.Fatalf("internal to another recipient: %v, want a 400 naming externalReference", err)
	}

	f := newSubFixture(t, 5_000)
	if err := f.remove(t, time.Now(), 1_000, "retirada-1"); err != nil {
		t.Fatal(err)
	}
	if err := f.remove(t, time.Now(), 1_000, "retirada-1"); err != nil {
		t.Fatalf("same move again: %v", err)
	}
	if err := f.remove(t, time.Now(), 1_500, "retirada-1"); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "externalReference") {
		t.Fatalf("the reference for another amount: %v, want a 400 naming externalReference", err)
	}
	b, err := db.SubaccountBalance(ctx, sharedDB, f.sub)
	if err != nil || b.AvailablePadrao != 4_000 {
		t.Fatalf("sub-account balance %+v (%v): want one removal of 10.00", b, err)
	}
	verifyLedger(t)
}

// A retry finds what its first attempt did before it checks anything a new
// resource needs: a refund whose deposit has moved on, a sub-account PIX
// out whose sub-account was locked since, a sub-account whose
// externalReference its first attempt took, a schedule holding the last
// slot. Each used to answer a 400 for a request that went ahead.
func TestRetryAnswersWithTheFirstAttemptBeforeItsChecks(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil).AnyTimes()

	t.Run("refund of a deposit already REVERSED", func(t *testing.T) {
		acct := newAccount(t, "Loja Estorno")
		fund(t, acct.ID, 10_000)
		refunds := &service.Refunds{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue}
		e2e := "E" + strings.ReplaceAll(domain.NewID(""), "-", "")[:31]
		d := storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixIn, Status: domain.StatusCompleted,
			Amount: 1_000, FeeAmount: 50, NetAmount: 950, EndToEndID: &e2e, CompletedAt: domain.TimePtr(time.Now())})
		req := domain.NewRefund{DepositRef: d.ID, Amount: 1_000, Nature: "ORIGINAL", IdempotencyKey: "key_1 estorno"}
		if _, err := refunds.Create(ctx, acct, req); err != nil {
			t.Fatal(err)
		}
		// The refund completed: the deposit is no longer refundable.
		if _, err := sharedDB.ExecContext(ctx, `UPDATE transactions SET status = $2 WHERE id = $1`, d.ID, domain.StatusReversed); err != nil {
			t.Fatal(err)
		}
		if got, err := refunds.Create(ctx, acct, req); err != nil || got.ID != d.ID {
			t.Fatalf("retry after the refund went ahead: %v %v, want the refund of %s", got.ID, err, d.ID)
		}
	})

	t.Run("sub-account PIX out after a lock", func(t *testing.T) {
		f := newSubFixture(t, 5_000)
		f.acct.Features.SubaccountPix = true
		transfers := &service.Transfers{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue}
		out := pixOut("key_1 sub-out")
		out.SubaccountID = f.sub
		first, err := transfers.Create(ctx, f.acct, f.key, out)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Lock(ctx, f.acct, subaccount.Lock{ID: f.sub, Mode: subaccount.LockFull}); err != nil {
			t.Fatal(err)
		}
		if again, err := transfers.Create(ctx, f.acct, f.key, out); err != nil || again.ID != first.ID {
			t.Fatalf("retry after the lock: %s %v, want the first PIX out %s", again.ID, err, first.ID)
		}
		out.IdempotencyKey = "key_1 sub-out-2"
		if _, err := transfers.Create(ctx, f.acct, f.key, out); err == nil {
			t.Fatal("a new PIX out from a locked sub-account went ahead")
		}
	})

	t.Run("sub-account create", func(t *testing.T) {
		acct := newAccount(t, "Loja Subconta")
		acct.Features.Subaccounts = true
		subs := &service.Subaccounts{DB: sharedDB}
		in := subaccount.NewSubaccount{IdempotencyKey: "key_1 nova", PersonType: "PF", Name: "Ana", CPF: "52998224725",
			BirthDate: "1990-01-01", PostalCode: "01310100", ExternalReference: "cliente-7"}
		a, err := subs.Create(ctx, acct, in)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := subs.Create(ctx, acct, in); err != nil || b.ID != a.ID {
			t.Fatalf("retry: %s %v, want the first sub-account %s", b.ID, err, a.ID)
		}
		in.IdempotencyKey = "key_1 outra"
		if _, err := subs.Create(ctx, acct, in); !errors.Is(err, domain.ErrInvalid) {
			t.Fatalf("a new request with the same externalReference: %v, want a 400", err)
		}
	})
}

// Idempotency-Key claims belong to the API key that sent them: the same
// key string from another API key of the account is a fresh claim, and the
// ids derived from it differ.
func TestIdempotencyClaimsAreScopedByTheCaller(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, "Loja Chaves")
	if c, err := db.Idempotency(ctx, sharedDB, acct.ID, "key_1 same", []byte("h")); err != nil || !c.Claimed {
		t.Fatalf("first key: %+v %v", c, err)
	}
	if err := db.Remember(ctx, sharedDB, acct.ID, "key_1 same", db.StoredAnswer{Status: 200, Response: []byte(`{"secret":"whsec_1"}`)}); err != nil {
		t.Fatal(err)
	}
	if c, err := db.Idempotency(ctx, sharedDB, acct.ID, "key_2 same", []byte("h")); err != nil || !c.Claimed || c.Stored != nil {
		t.Fatalf("another API key with the same Idempotency-Key: %+v %v, want a fresh claim", c, err)
	}
}
