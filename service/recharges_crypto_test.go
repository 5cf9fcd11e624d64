package service_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor/sandbox"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
)

// productAccount is an account with mobile recharge and crypto on, funded.
func productAccount(t *testing.T, name string, amount money.Cents) domain.Account {
	t.Helper()
	acct := newAccount(t, name)
	acct.Features.Crypto, acct.Features.MobileRecharge = true, true
	if amount > 0 {
		fund(t, acct.ID, amount)
	}
	return acct
}

// startsAnything is a Temporal that accepts every start and signal.
func startsAnything(t *testing.T) *servicemock.MockTemporal {
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil).AnyTimes()
	temporal.EXPECT().SignalWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil).AnyTimes()
	return temporal
}

func balanceOf(t *testing.T, acct domain.Account) db.Balance {
	t.Helper()
	b, err := db.GetBalance(t.Context(), sharedDB, acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func wantErr(t *testing.T, what string, err, kind error, text string) {
	t.Helper()
	if !errors.Is(err, kind) || !strings.Contains(err.Error(), text) {
		t.Fatalf("%s: %v, want %v containing %q", what, err, kind, text)
	}
}

func TestCryptoWithdrawalQuoteRules(t *testing.T) {
	t.Parallel()
	acct := productAccount(t, "Loja Cripto", 30_000)
	now := time.Now().UTC().Truncate(time.Microsecond) // PostgreSQL's precision
	s := &service.Crypto{DB: sharedDB, Temporal: startsAnything(t), TaskQueue: taskQueue, Processor: &sandbox.Sandbox{},
		Now: func() time.Time { return now }}
	btc := crypto.CryptoCurrencies["BTC"]
	key := domain.APIKey{ID: "k"}
	send := func(quoteID, idem string, amount money.Cents) (domain.Transaction, error) {
		return s.CreateWithdrawal(t.Context(), acct, key, crypto.NewCryptoWithdrawal{IdempotencyKey: idem, Address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
			Currency: btc, Amount: amount, QuoteID: quoteID})
	}
	_, err := send("", "a", 10_000)
	wantErr(t, "no quote", err, domain.ErrInvalid, "quoteId is required: no unused quote of 100.00 in BTC")

	q, err := s.Quote(t.Context(), acct, crypto.NewCryptoQuote{Amount: 10_000, Currency: btc})
	if err != nil || q.PayUnits != 28571 || q.Rate != sandbox.CryptoRates["BTC"] || !q.ExpiresAt.Equal(now.Add(crypto.CryptoQuoteValidity)) {
		t.Fatalf("quote %+v, %v", q, err)
	}
	w, err := send("", "b", 10_000) // the latest unused quote of that amount
	if err != nil || w.Details.V.Crypto.QuoteID != q.ID || w.Details.V.Crypto.PayUnits != 28571 || w.Status != domain.StatusPending {
		t.Fatalf("withdrawal %+v, %v", w, err)
	}
	if again, err := send("", "b", 10_000); err != nil || again.ID != w.ID { // a retry finds it before any check
		t.Fatalf("retry: %v, %v", again.ID, err)
	}
	if b := balanceOf(t, acct); b.Available != 20_000 || b.Pending != 10_000 {
		t.Fatalf("balance %+v", b)
	}
	_, err = send(q.ID, "c", 10_000)
	wantErr(t, "quote used twice", err, domain.ErrInvalid, "quoteId was already used by withdrawal "+w.ID)

	q2, _ := s.Quote(t.Context(), acct, crypto.NewCryptoQuote{Amount: 5_000, Currency: btc})
	_, err = send(q2.ID, "d", 6_000)
	wantErr(t, "another amount", err, domain.ErrInvalid, "quoteId quotes 50.00 in BTC, not 60.00 in BTC")
	now = now.Add(crypto.CryptoQuoteValidity)
	_, err = send(q2.ID, "e", 5_000)
	wantErr(t, "expired quote", err, domain.ErrInvalid, "quoteId has expired")

	other := productAccount(t, "Outra Cripto", 0)
	_, err = s.CreateWithdrawal(t.Context(), other, key, crypto.NewCryptoWithdrawal{Address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
		Currency: btc, Amount: 5_000, QuoteID: q2.ID})
	wantErr(t, "another account's quote", err, domain.ErrNotFound, "quote not found")

	// More than the withdrawable money: refused under the balance lock, the
	// quote left unused (its transaction rolled back).
	q3, _ := s.Quote(t.Context(), acct, crypto.NewCryptoQuote{Amount: 20_001, Currency: btc})
	_, err = send(q3.ID, "f", 20_001)
	wantErr(t, "overdraft", err, domain.ErrInsufficientBalance, "insufficient balance")
	if _, err := s.SendAuto(t.Context(), acct, key, crypto.NewCryptoWithdrawal{Address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
		Currency: btc, Amount: 20_000}); err != nil {
		t.Fatalf("quote and send the rest: %v", err)
	}
	if b := balanceOf(t, acct); b.Available != 0 || b.Pending != 30_000 {
		t.Fatalf("balance %+v", b)
	}
	acct.Features.Crypto = false
	if _, err := s.Quote(t.Context(), acct, crypto.NewCryptoQuote{Amount: 100, Currency: btc}); !errors.Is(err, domain.ErrForbidden) {
		t.Fatalf("feature off: %v", err)
	}
	verifyLedger(t)
}

func TestCryptoDepositsHaveAnAddressEach(t *testing.T) {
	t.Parallel()
	acct := productAccount(t, "Loja Deposito", 0)
	s := &service.Crypto{DB: sharedDB, Temporal: startsAnything(t), TaskQueue: taskQueue, Processor: &sandbox.Sandbox{}}
	seen := map[string]bool{}
	for _, code := range crypto.CryptoCodes() {
		c := crypto.CryptoCurrencies[code]
		d, err := s.CreateDeposit(t.Context(), acct, domain.APIKey{ID: "k"}, crypto.NewCryptoDeposit{Amount: 10_000, Currency: c, IdempotencyKey: code})
		if err != nil {
			t.Fatal(err)
		}
		b := d.Details.V.Crypto
		if seen[b.Address] || c.CheckAddress(b.Address, b.ExtraID) != nil || d.Status != domain.StatusPending || d.ExpiresAt == nil {
			t.Fatalf("%s deposit %+v %+v", code, d, b)
		}
		seen[b.Address] = true
		if want := c.PayUnits(10_000, sandbox.CryptoRates[code], true); b.PayUnits != want {
			t.Fatalf("%s payUnits %d, want %d", code, b.PayUnits, want)
		}
		again, err := s.CreateDeposit(t.Context(), acct, domain.APIKey{ID: "k"}, crypto.NewCryptoDeposit{Amount: 10_000, Currency: c, IdempotencyKey: code})
		if err != nil || again.ID != d.ID {
			t.Fatalf("retried create: %v %v", again.ID, err)
		}
	}
	if b := balanceOf(t, acct); b.Available != 0 {
		t.Fatalf("an unpaid deposit moved money: %+v", b)
	}
}

func TestRechargeCreateTakesOnlyOfferedAmounts(t *testing.T) {
	t.Parallel()
	acct := productAccount(t, "Loja Recarga", 2_500)
	s := &service.Recharges{DB: sharedDB, Temporal: startsAnything(t), TaskQueue: taskQueue, Processor: &sandbox.Sandbox{}}
	phone := mobile.MobileNumber{DDD: "11", Number: "937654321"} // 3 → VIVO
	p, err := s.Provider(t.Context(), acct, phone)
	if err != nil || p.Operator != sandbox.OperatorVivo || p.Phone != "11937654321" || len(p.Amounts) == 0 {
		t.Fatalf("provider %+v, %v", p, err)
	}
	_, err = s.Create(t.Context(), acct, domain.APIKey{ID: "k"}, mobile.NewRecharge{Phone: phone, Amount: 1000})
	wantErr(t, "amount not offered", err, domain.ErrInvalid, "amount must be one of the amounts offered for this number: 15.00, 20.00")
	_, err = s.Create(t.Context(), acct, domain.APIKey{ID: "k"}, mobile.NewRecharge{Phone: phone, Amount: 3000})
	wantErr(t, "more than withdrawable", err, domain.ErrInsufficientBalance, "insufficient balance")
	r, err := s.Create(t.Context(), acct, domain.APIKey{ID: "k"}, mobile.NewRecharge{Phone: phone, Amount: 2000})
	if err != nil || r.Status != domain.StatusPending || r.Details.V.Recharge.Operator != sandbox.OperatorVivo {
		t.Fatalf("recharge %+v, %v", r, err)
	}
	if b := balanceOf(t, acct); b.Available != 500 || b.Pending != 2000 {
		t.Fatalf("balance %+v", b)
	}
	c, err := s.Cancel(t.Context(), acct, r.ID)
	if err != nil || c.Status != domain.StatusCanceled || mobile.CanBeCancelled(c) {
		t.Fatalf("cancel %+v, %v", c, err)
	}
	if b := balanceOf(t, acct); b.Available != 2500 || b.Pending != 0 {
		t.Fatalf("balance after cancel %+v", b)
	}
	other := productAccount(t, "Outra Recarga", 0)
	if _, err := s.Cancel(t.Context(), other, r.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another account's recharge: %v", err)
	}
	verifyLedger(t)
}
