package activities_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
)

// cryptoRecord builds a deposit or withdrawal of amount as service.Crypto does.
func (f *fixture) cryptoRecord(typ string, amount money.Cents) domain.Transaction {
	now := time.Now().UTC()
	id := domain.NewID("")
	hash := sha256.Sum256([]byte(id))
	addr := crypto.CryptoCurrencies["ETH"].CryptoAddressFor(hash[:20]) // one address per deposit
	return domain.Transaction{
		ID: id, AccountID: f.merchant.ID, APIKeyID: ptr("key_test"), Type: typ, Status: domain.StatusPending,
		Amount: amount, NetAmount: amount, Description: "cripto", CreatedAt: domain.NewTime(now), ExpiresAt: domain.TimePtr(now.Add(time.Hour)),
		Details: domain.SomeJSON(domain.Details{Crypto: &domain.CryptoBlock{PayCurrency: "ETH", PayUnits: 833333, Rate: 1_200_000,
			Address: addr}}),
	}
}

func TestCreditCryptoDepositCreditsTheQuoteOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.cryptoRecord(domain.TypeCryptoIn, 10000)
	f.inTx(func(tx *sqlx.Tx) error { return activities.InsertCryptoDeposit(f.ctx, tx, d) })
	a := &activities.Crypto{Base: f.base()}
	if status, err := a.EnsureCryptoDeposit(f.ctx, d); err != nil || status != domain.StatusPending {
		t.Fatalf("EnsureCryptoDeposit = %s, %v", status, err)
	}
	f.wantBalance(0, 0) // nothing arrived yet
	in := activities.CryptoNoticeInput{ID: d.ID, Notice: processor.CryptoNotice{Outcome: processor.OutcomePaid, TxHash: "0xabc"}}
	for range 2 {
		if status, err := a.CreditCryptoDeposit(f.ctx, in); err != nil || status != domain.StatusCompleted {
			t.Fatalf("CreditCryptoDeposit = %s, %v", status, err)
		}
	}
	key := "crypto:" + d.ID + ":credit"
	f.wantEqual("postings", f.postings(d.ID), []string{key})
	f.wantEqual("moves", f.moves(key), map[string]money.Cents{crypto.LedgerCryptoClearing: -10000, domain.AvailableLedger(f.merchant.ID): 10000})
	if b := f.balance(f.merchant.ID); b.Available != 10000 || b.Withdrawable != 10000 {
		t.Fatalf("credited deposit: %+v (not locked: it is not PIX)", b)
	}
	got := f.get(d.ID, domain.TypeCryptoIn)
	f.wantEqual("txHash", got.Details.V.Crypto.TxHash, "0xabc")
	f.wantEqual("events", f.events(d.ID), []string{}) // crypto events are not active
	if status, err := a.ExpireCryptoDeposit(f.ctx, d.ID); err != nil || status != domain.StatusCompleted {
		t.Fatalf("expiry after payment = %s, %v", status, err)
	}
}

func TestExpireCryptoDepositClosesItUnpaid(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.cryptoRecord(domain.TypeCryptoIn, 10000)
	f.inTx(func(tx *sqlx.Tx) error { return activities.InsertCryptoDeposit(f.ctx, tx, d) })
	a := &activities.Crypto{Base: f.base()}
	for range 2 {
		if status, err := a.ExpireCryptoDeposit(f.ctx, d.ID); err != nil || status != domain.StatusCanceled {
			t.Fatalf("ExpireCryptoDeposit = %s, %v", status, err)
		}
	}
	f.wantBalance(0, 0)
	f.wantEqual("postings", f.postings(d.ID), []string{})
	// A payment after expiry is credited late: crypto_late_test.go.
}

func TestCryptoWithdrawalReservesSubmitsAndSettlesOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 15000)
	w := f.cryptoRecord(domain.TypeCryptoOut, 10000)
	for range 2 {
		f.inTx(func(tx *sqlx.Tx) error { return activities.ReserveCryptoWithdrawal(f.ctx, tx, w) })
	}
	f.wantBalance(5000, 10000)
	over := f.cryptoRecord(domain.TypeCryptoOut, 5001)
	if err := db.InTx(f.ctx, f.db, func(tx *sqlx.Tx) error { return activities.ReserveCryptoWithdrawal(f.ctx, tx, over) }); !errors.Is(err, domain.ErrInsufficientBalance) {
		t.Fatalf("withdrawal above the withdrawable money: %v", err)
	}
	proc := processormock.NewMockCrypto(gomock.NewController(t))
	proc.EXPECT().SendCrypto(gomock.Any(), processor.CryptoOutRequest{ID: w.ID, Currency: "ETH", Units: 833333,
		Address: w.Details.V.Crypto.Address}).Return(processor.Submission{ReferenceID: "cout-1"}, nil).Times(1)
	a := &activities.Crypto{Base: f.base(), Processor: proc}
	for range 2 { // the retry finds it PROCESSING and submits nothing
		if err := a.SubmitCryptoWithdrawal(f.ctx, w.ID); err != nil {
			t.Fatal(err)
		}
	}
	f.wantEqual("status", f.get(w.ID, domain.TypeCryptoOut).Status, domain.StatusProcessing)
	in := activities.CryptoNoticeInput{ID: w.ID, Notice: processor.CryptoNotice{Outcome: processor.OutcomeSettled, TxHash: "0xdef"}}
	for range 2 {
		if err := a.CompleteCryptoWithdrawal(f.ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.FailCryptoWithdrawal(f.ctx, in); err != nil { // a late failure changes nothing
		t.Fatal(err)
	}
	f.wantBalance(5000, 0)
	key := "crypto:" + w.ID + ":settle"
	f.wantEqual("moves", f.moves(key), map[string]money.Cents{domain.PendingLedger(f.merchant.ID): -10000, crypto.LedgerCryptoClearing: 10000})
	f.wantEqual("status", f.get(w.ID, domain.TypeCryptoOut).Status, domain.StatusCompleted)
}

func TestFailCryptoWithdrawalReturnsTheReserveExactly(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 10000)
	w := f.cryptoRecord(domain.TypeCryptoOut, 10000)
	f.inTx(func(tx *sqlx.Tx) error { return activities.ReserveCryptoWithdrawal(f.ctx, tx, w) })
	a := &activities.Crypto{Base: f.base()}
	in := activities.CryptoNoticeInput{ID: w.ID, Notice: processor.CryptoNotice{Outcome: processor.OutcomeFailed}}
	for range 2 {
		if err := a.FailCryptoWithdrawal(f.ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	f.wantBalance(10000, 0)
	f.wantEqual("postings", f.postings(w.ID), []string{"crypto:" + w.ID + ":reserve", "crypto:" + w.ID + ":release"})
}

// A deposit made for another product (a checkout session) tells its owner
// in the transaction that credits or expires it, as an owned charge does.
var cryptoOwnerSeen = map[string]string{}

var _ = activities.RegisterChargeOwner("test-crypto-owner", activities.ChargeOwnerHook{
	Moved: func(_ context.Context, _ *sqlx.Tx, d domain.Transaction, _ string) error {
		cryptoOwnerMu.Lock()
		defer cryptoOwnerMu.Unlock()
		cryptoOwnerSeen[d.Details.V.Owner.ID] = d.Status
		return nil
	},
})

var cryptoOwnerMu sync.Mutex

func TestCryptoDepositTellsItsOwner(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Crypto{Base: f.base()}
	paid, unpaid := f.cryptoRecord(domain.TypeCryptoIn, 1000), f.cryptoRecord(domain.TypeCryptoIn, 2000)
	paid.Details.V.Owner = &domain.ChargeOwner{Kind: "test-crypto-owner", ID: "cs_paid_" + paid.ID}
	unpaid.Details.V.Owner = &domain.ChargeOwner{Kind: "test-crypto-owner", ID: "cs_unpaid_" + unpaid.ID}
	for _, d := range []domain.Transaction{paid, unpaid} {
		f.inTx(func(tx *sqlx.Tx) error { return activities.InsertCryptoDeposit(f.ctx, tx, d) })
	}
	if _, err := a.CreditCryptoDeposit(f.ctx, activities.CryptoNoticeInput{ID: paid.ID, Notice: processor.CryptoNotice{Outcome: processor.OutcomePaid}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ExpireCryptoDeposit(f.ctx, unpaid.ID); err != nil {
		t.Fatal(err)
	}
	cryptoOwnerMu.Lock()
	defer cryptoOwnerMu.Unlock()
	f.wantEqual("paid owner", cryptoOwnerSeen["cs_paid_"+paid.ID], domain.StatusCompleted)
	f.wantEqual("expired owner", cryptoOwnerSeen["cs_unpaid_"+unpaid.ID], domain.StatusCanceled)
}
