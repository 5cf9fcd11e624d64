package activities_test

import (
	"testing"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

// Coins confirmed after their deposit expired are credited, not refused
// (the payer's coins arrived): once, under the deposit's one credit key,
// whichever of the workflow and the Inbox books them, at the lesser of the
// quote and what the coins bring at the processor's price then.
func TestCryptoDepositPaidAfterItExpiredIsCreditedOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Crypto{Base: f.base()}
	for _, c := range []struct {
		name      string
		rate      money.Cents // the processor's price in the notice (0: none)
		want      money.Cents
		wantRated money.Cents
	}{
		{"at the quote", 0, 10000, 1_200_000},
		{"the coin fell by a quarter", 900_000, 7499, 900_000}, // 833333 units × 9,000.00 BRL, rounded down
	} {
		d := f.cryptoRecord(domain.TypeCryptoIn, 10000)
		if _, err := a.EnsureCryptoDeposit(f.ctx, d); err != nil {
			t.Fatal(err)
		}
		if status, err := a.ExpireCryptoDeposit(f.ctx, d.ID); err != nil || status != domain.StatusCanceled {
			t.Fatalf("%s: expire = %s, %v", c.name, status, err)
		}
		before := f.balance(f.merchant.ID).Available
		in := activities.CryptoNoticeInput{ID: d.ID, Notice: processor.CryptoNotice{Outcome: processor.OutcomePaid, TxHash: "0xlate", Rate: c.rate}}
		// The workflow's retried step and the Inbox's booking of the same notice.
		for range 2 {
			if status, err := a.CreditCryptoDeposit(f.ctx, in); err != nil || status != domain.StatusCompleted {
				t.Fatalf("%s: credit = %s, %v", c.name, status, err)
			}
		}
		if status, err := activities.BookCryptoDeposit(f.ctx, f.base(), in); err != nil || status != domain.StatusCompleted {
			t.Fatalf("%s: Inbox booking = %s, %v", c.name, status, err)
		}
		key := "crypto:" + d.ID + ":credit"
		f.wantEqual(c.name+" postings", f.postings(d.ID), []string{key})
		f.wantEqual(c.name+" moves", f.moves(key), map[string]money.Cents{crypto.LedgerCryptoClearing: -c.want, domain.AvailableLedger(f.merchant.ID): c.want})
		f.wantEqual(c.name+" credited", f.balance(f.merchant.ID).Available-before, c.want)
		got := f.get(d.ID, domain.TypeCryptoIn)
		late := got.Details.V.Crypto.LatePayment
		if late == nil || late.Credited != c.want || late.Rate != c.wantRated || got.NetAmount != c.want || got.Amount != 10000 ||
			got.Details.V.Crypto.TxHash != "0xlate" {
			t.Fatalf("%s: deposit %+v, late %+v", c.name, got, late)
		}
		// An expire retried after the late credit changes nothing.
		if status, err := a.ExpireCryptoDeposit(f.ctx, d.ID); err != nil || status != domain.StatusCompleted {
			t.Fatalf("%s: expire after = %s, %v", c.name, status, err)
		}
	}
	f.verifyLedger()
}

// A CRYPTO session whose deposit expired is paid late when its coins bring
// the whole quote; coins that fell short credit the merchant what they
// bring, and the sale does not happen (the session stays EXPIRED).
func TestCryptoSessionPaidLateOnlyInFull(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Crypto{Base: f.base()}
	full, dep := f.cryptoCheckoutSession(5500)
	short, dep2 := f.cryptoCheckoutSession(5500)
	for _, d := range []domain.Transaction{dep, dep2} {
		if _, err := a.ExpireCryptoDeposit(f.ctx, d.ID); err != nil {
			t.Fatal(err)
		}
	}
	f.wantEqual("expired", f.session(full.ID).Status, checkout.SessionExpired)
	if _, err := a.CreditCryptoDeposit(f.ctx, activities.CryptoNoticeInput{ID: dep.ID, Notice: processor.CryptoNotice{Outcome: processor.OutcomePaid}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.CreditCryptoDeposit(f.ctx, activities.CryptoNoticeInput{ID: dep2.ID,
		Notice: processor.CryptoNotice{Outcome: processor.OutcomePaid, Rate: 600_000}}); err != nil { // half the quote's price
		t.Fatal(err)
	}
	f.wantEqual("paid late in full", f.session(full.ID).Status, checkout.SessionPaid)
	f.wantEqual("session events", f.events(full.ID), []string{domain.EventPaymentLinkPaid})
	f.wantEqual("short of the quote", f.session(short.ID).Status, checkout.SessionExpired)
	f.wantEqual("short session events", f.events(short.ID), []string{})
	// The fixture's deposits hold 833333 units of ETH: 49.99 at 6,000.00.
	f.wantEqual("credited", f.balance(f.merchant.ID).Available, money.Cents(5500+4999))
	f.verifyLedger()
}
