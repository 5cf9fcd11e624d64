package service_test

import (
	"errors"
	"testing"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/processor/sandbox"
	"github.com/jangada/jangada/service"
)

// A cripto schedule (the specification's payload method) is refused with
// 403 for an account without the crypto feature, and otherwise runs
// through the crypto product: each run a withdrawal quoted and sent at
// once, found again by a retried run, refused once the feature is off.
func TestScheduledCryptoRunsThroughTheCryptoProduct(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	temporal := startsAnything(t)
	crypto := &service.Crypto{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue, Processor: &sandbox.Sandbox{}}
	runs := &service.Schedules{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue,
		Transfers: &service.Transfers{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue},
		Internal:  &service.Internal{DB: sharedDB}, Crypto: crypto}
	in := schedule.NewSchedule{Label: "reserva", Trigger: schedule.BalanceThreshold, Threshold: 100_000,
		Payload: schedule.Payload{Method: schedule.MethodCrypto, Amount: 2_500, PayCurrency: "BTC",
			Address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"}}

	plain := newAccount(t, "Sem Cripto")
	plainKey, _, err := service.NewKey(ctx, sharedDB, plain.ID, domain.NewKey{Name: "agenda", Permissions: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runs.Create(ctx, plain, plainKey, in); !errors.Is(err, domain.ErrForbidden) {
		t.Fatalf("cripto schedule without the crypto feature: %v, want 403", err)
	}

	acct := newAccount(t, "Agenda Cripto")
	on := acct.Features
	on.Crypto = true
	acct, err = db.UpdateAccount(ctx, sharedDB, acct.ID, db.AccountPatch{Features: &on})
	if err != nil {
		t.Fatal(err)
	}
	fund(t, acct.ID, 10_000)
	narrow, _, err := service.NewKey(ctx, sharedDB, acct.ID, domain.NewKey{Name: "só pix", Permissions: []string{"transfer-scheduled/*", "transfer-pix/create"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runs.Create(ctx, acct, narrow, in); !errors.Is(err, domain.ErrForbidden) {
		t.Fatalf("cripto schedule by a key that cannot send crypto: %v, want 403", err)
	}
	key, _, err := service.NewKey(ctx, sharedDB, acct.ID, domain.NewKey{Name: "agenda", Permissions: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := runs.Create(ctx, acct, key, in)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if rec.Method != "Cripto" || rec.Destination != "BTC bc1qar…5mdq" || rec.Amount != 2_500 {
		t.Fatalf("record %+v", rec)
	}

	first, err := runs.Run(ctx, rec.ID, 1)
	if err != nil || first.Type != domain.TypeCryptoOut || first.Amount != 2_500 {
		t.Fatalf("run 1: %+v %v", first, err)
	}
	w, err := db.GetTransaction(ctx, sharedDB, acct.ID, first.TransactionID, domain.TypeCryptoOut)
	if err != nil || w.ExternalReference == nil || *w.ExternalReference != "sched-"+rec.ID+"-1" ||
		w.Details.V.Crypto == nil || w.Details.V.Crypto.Address != in.Payload.Address || w.Details.V.Crypto.QuoteID == "" {
		t.Fatalf("withdrawal %+v %v", w, err)
	}
	again, err := runs.Run(ctx, rec.ID, 1)
	if err != nil || again.TransactionID != first.TransactionID {
		t.Fatalf("retried run 1: %+v %v, want %s", again, err, first.TransactionID)
	}
	var n int
	if err := sharedDB.GetContext(ctx, &n, `SELECT count(*) FROM transactions WHERE account_id = $1 AND type = $2`,
		acct.ID, domain.TypeCryptoOut); err != nil || n != 1 {
		t.Fatalf("%d withdrawals (%v), want 1", n, err)
	}

	off := acct.Features
	off.Crypto = false
	if _, err := db.UpdateAccount(ctx, sharedDB, acct.ID, db.AccountPatch{Features: &off}); err != nil {
		t.Fatal(err)
	}
	if _, err := runs.Run(ctx, rec.ID, 2); !errors.Is(err, domain.ErrForbidden) {
		t.Fatalf("run with the feature switched off: %v, want 403", err)
	}
	verifyLedger(t)
}
