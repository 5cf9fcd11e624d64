package activities_test

import (
	"context"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/db/dbtest"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/service"
)

// The package's tests share one migrated database (dbtest makes it once in
// TestMain): creating a database costs about a second, a test a few
// milliseconds. Tests stay independent because each one opens its own
// accounts and records and looks only at them; platform ledger accounts are
// checked through the entries of a test's own postings.
var sharedDB *sqlx.DB

func TestMain(m *testing.M) {
	os.Exit(dbtest.RunWithShared(m, &sharedDB))
}

// fixture is one test's merchant and partner accounts (default fees:
// R$ 0.50 per PIX in and per PIX out), with helpers that build records the
// way the use cases in package service do.
type fixture struct {
	t        *testing.T
	ctx      context.Context
	db       *sqlx.DB
	merchant domain.Account
	partner  domain.Account

	mu        sync.Mutex
	published []string // types of this fixture's events handed to db.OnEventsCommitted
}

const publicURL = "https://api.jangada.test"

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{t: t, ctx: t.Context(), db: sharedDB}
	tag := strings.ReplaceAll(domain.NewID(""), "-", "")
	var err error
	if f.merchant, err = service.NewAccount(f.ctx, f.db, "Loja Exemplo", "loja-"+tag+"@example.com", "52998224725"); err != nil {
		t.Fatal(err)
	}
	if f.partner, err = service.NewAccount(f.ctx, f.db, "Parceiro", "parceiro-"+tag+"@example.com", "11222333000181"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.verifyLedger)
	t.Cleanup(db.OnEventsCommitted(func(_ *sqlx.DB, evs []domain.Event) {
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, ev := range evs {
			if ev.AccountID == f.merchant.ID || ev.AccountID == f.partner.ID {
				f.published = append(f.published, ev.Type)
			}
		}
	}))
	return f
}

// verifyLedger fails the test unless the ledger's invariants hold.
func (f *fixture) verifyLedger() {
	problems, err := db.VerifyLedger(context.Background(), f.db)
	if err != nil {
		f.t.Errorf("VerifyLedger: %v", err)
	}
	for _, p := range problems {
		f.t.Errorf("ledger: %s", p)
	}
}

func (f *fixture) base() activities.Base {
	return activities.Base{DB: f.db, PublicURL: publicURL}
}

// resetPublished forgets the events published so far (a test's set-up).
func (f *fixture) resetPublished() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.published = nil
}

func (f *fixture) publishedTypes() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.published)
}

// fund books an adjustment: available and withdrawable at once.
func (f *fixture) fund(accountID string, amount money.Cents) {
	f.t.Helper()
	if _, err := service.Adjust(f.ctx, f.db, accountID, amount, "funding", ""); err != nil {
		f.t.Fatal(err)
	}
}

// newCharge stores a PENDING charge of amount (fee out of it) with an
// optional split of the net to the partner, as service.Charges.Create does.
func (f *fixture) newCharge(amount money.Cents, splitPct money.Percent) domain.Transaction {
	f.t.Helper()
	fee := f.merchant.Fees.PixIn(amount)
	now := time.Now().UTC()
	t := domain.Transaction{
		ID: domain.NewID(""), AccountID: f.merchant.ID, APIKeyID: ptr("key_test"), Type: domain.TypePixIn, Status: domain.StatusPending,
		Amount: amount, FeeAmount: fee, NetAmount: amount - fee, Description: "Pedido 42",
		ReferenceID: ptr("sbx_ref"), CopyPaste: ptr("000201"), ExpiresAt: domain.TimePtr(now.Add(time.Hour)), CreatedAt: domain.NewTime(now),
		Details: domain.SomeJSON(domain.Details{RequestedAmount: int64(amount)}),
	}
	if splitPct > 0 {
		t.Details.V.Split = &domain.Split{AccountID: f.partner.ID, Email: f.partner.Email, Percent: splitPct, Amount: t.NetAmount.MulPercent(splitPct)}
	}
	f.inTx(func(tx *sqlx.Tx) error {
		ev, err := activities.InsertCharge(f.ctx, tx, t, publicURL, nil)
		if err == nil && ev == nil {
			f.t.Fatal("InsertCharge wrote no event for a new charge")
		}
		return err
	})
	return t
}

// paidNotice is the processor's confirmation of a deposit.
func paidNotice() processor.ChargeNotice {
	at := time.Now().UTC()
	return processor.ChargeNotice{
		Outcome: processor.OutcomePaid, EndToEndID: processor.EndToEndID("99999908", at), At: at,
		Payer: &domain.Party{Name: "Pagador", Document: "11144477735"},
	}
}

// settledCharge is a COMPLETED charge of amount, without split.
func (f *fixture) settledCharge(amount money.Cents) domain.Transaction {
	f.t.Helper()
	c := f.newCharge(amount, 0)
	a := &activities.Charges{Base: f.base()}
	if _, err := a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: paidNotice()}); err != nil {
		f.t.Fatal(err)
	}
	return f.get(c.ID, domain.TypePixIn)
}

// pixOut builds a PENDING PIX out as service.Transfers.Create does, without
// storing it.
func (f *fixture) pixOut(amount money.Cents, coverFee bool) domain.Transaction {
	fee := f.merchant.Fees.PixOut(amount)
	debit, sent := amount+fee, amount
	if !coverFee {
		debit, sent = amount, amount-fee
	}
	return domain.Transaction{
		ID: domain.NewID(""), AccountID: f.merchant.ID, APIKeyID: ptr("key_test"), Type: domain.TypePixOut,
		Status: domain.StatusPending, Amount: amount, FeeAmount: fee, NetAmount: sent, Description: "Aluguel",
		CreatedAt: domain.NewTime(time.Now().UTC()),
		Details:   domain.SomeJSON(domain.Details{PixKey: "ana@example.com", PixKeyType: "EMAIL", Debit: debit, CoverFee: coverFee}),
	}
}

// newTransfer stores a PIX out and reserves its debit, as the API does.
func (f *fixture) newTransfer(amount money.Cents, coverFee bool) domain.Transaction {
	f.t.Helper()
	t := f.pixOut(amount, coverFee)
	f.inTx(func(tx *sqlx.Tx) error { return activities.ReserveTransfer(f.ctx, tx, t, publicURL) })
	return t
}

func (f *fixture) inTx(fn func(tx *sqlx.Tx) error) {
	f.t.Helper()
	if err := db.InTx(f.ctx, f.db, fn); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) get(id, typ string) domain.Transaction {
	f.t.Helper()
	t, err := db.TransactionByID(f.ctx, f.db, id, typ)
	if err != nil {
		f.t.Fatal(err)
	}
	return t
}

func (f *fixture) balance(accountID string) db.Balance {
	f.t.Helper()
	b, err := db.GetBalance(f.ctx, f.db, accountID)
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

// moves sums the entries of the posting with this idempotency key per
// ledger account (platform accounts included).
func (f *fixture) moves(key string) map[string]money.Cents {
	f.t.Helper()
	var rows []struct {
		Account string      `db:"ledger_account_id"`
		Amount  money.Cents `db:"amount"`
	}
	if err := f.db.SelectContext(f.ctx, &rows, `SELECT e.ledger_account_id, sum(e.amount) AS amount
		FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.ledger_transaction_id
		WHERE t.idempotency_key = $1 GROUP BY 1`, key); err != nil {
		f.t.Fatal(err)
	}
	m := map[string]money.Cents{}
	for _, r := range rows {
		m[r.Account] = r.Amount
	}
	return m
}

// postings lists the idempotency keys of the ledger transactions booked
// for a record, in order.
func (f *fixture) postings(txID string) []string {
	f.t.Helper()
	keys := []string{}
	if err := f.db.SelectContext(f.ctx, &keys, `SELECT idempotency_key FROM ledger_transactions WHERE transaction_id = $1 ORDER BY id`, txID); err != nil {
		f.t.Fatal(err)
	}
	return keys
}

// events lists the types of a resource's outbox events, in order.
func (f *fixture) events(resourceID string) []string {
	f.t.Helper()
	evs, err := db.EventsFor(f.ctx, f.db, resourceID)
	if err != nil {
		f.t.Fatal(err)
	}
	types := []string{}
	for _, ev := range evs {
		types = append(types, ev.Type)
	}
	return types
}

func (f *fixture) wantEqual(what string, got, want any) {
	f.t.Helper()
	if !reflect.DeepEqual(got, want) {
		f.t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func ptr[T any](v T) *T { return &v }
