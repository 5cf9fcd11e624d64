package activities_test

import (
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/money"
)

// ledgerBalance is a wallet's balance read from its ledger entries alone,
// by the balance's own definition (docs/ledger.md): available is the sum
// of the available ledger's entries, locked24h the part of it still
// locked (never more than is available), withdrawable the rest. It does
// not go through db.GetBalances, so the two can be held equal.
func (f *fixture) ledgerBalance(wallet string) db.Balance {
	f.t.Helper()
	var row struct {
		Available money.Cents `db:"available"`
		Locked    money.Cents `db:"locked"`
	}
	if err := f.db.GetContext(f.ctx, &row, `SELECT coalesce(sum(amount), 0) AS available,
		coalesce(sum(amount) FILTER (WHERE locked_until > now()), 0) AS locked
		FROM ledger_entries WHERE ledger_account_id = $1`, domain.AvailableLedger(wallet)); err != nil {
		f.t.Fatal(err)
	}
	locked := min(row.Locked, max(row.Available, 0))
	return db.Balance{Available: row.Available, Locked24h: locked, Withdrawable: max(row.Available-locked, 0)}
}

// wantBalanceOf checks a wallet's balance against want, both as
// db.GetBalance reads it and as its ledger entries define it.
func (f *fixture) wantBalanceOf(what, wallet string, want [3]money.Cents) {
	f.t.Helper()
	b, l := f.balance(wallet), f.ledgerBalance(wallet)
	f.wantEqual(what+": available, locked24h, withdrawable", [3]money.Cents{b.Available, b.Locked24h, b.Withdrawable}, want)
	f.wantEqual(what+": the ledger's entries", [3]money.Cents{l.Available, l.Locked24h, l.Withdrawable}, want)
}

// settle pays charge c (already stored) as the processor's notice does.
func (f *fixture) settle(c domain.Transaction) domain.Transaction {
	f.t.Helper()
	if _, err := (&activities.Charges{Base: f.base()}).SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: paidNotice()}); err != nil {
		f.t.Fatal(err)
	}
	return f.get(c.ID, domain.TypePixIn)
}

// moveToSub gives a sub-account free money from its main account (as an
// add-balance does: not locked).
func (f *fixture) moveToSub(sub string, amount money.Cents) {
	f.t.Helper()
	f.fund(f.merchant.ID, amount)
	f.inTx(func(tx *sqlx.Tx) error {
		_, err := db.Post(f.ctx, tx, db.Posting{Key: "test-add-balance:" + sub, AccountID: f.merchant.ID, Kind: "SUBACCOUNT_ADD_BALANCE",
			Description: "add balance", Entries: []db.Entry{
				{Account: domain.AvailableLedger(f.merchant.ID), Amount: -amount},
				{Account: domain.AvailableLedger(sub), Amount: amount},
			}})
		return err
	})
}

// TestMEDBlocksOnlyTheDepositsOwnLockedMoney: a MED block takes, with the
// deposit's lock date, only what the disputed deposit left locked in its
// wallet — its net less the split paid to a partner and the fee its PIX
// billing took — never another deposit's locked money; so blocking frees
// no locked money, freezes no free money beyond the block, and the
// release restores the balance exactly. Every kind of deposit a MED can
// hit: a plain charge, a split charge, a sub-account's charge, a PIX
// billing's charge and a checkout session's charge; each with a second
// deposit still locked and free money beside it.
func TestMEDBlocksOnlyTheDepositsOwnLockedMoney(t *testing.T) {
	t.Parallel()
	const (
		gross    = money.Cents(10_000) // fee 0.50: net 9 950
		net      = money.Cents(9_950)
		free     = money.Cents(20_000)
		disputed = money.Cents(10_000)
	)
	cases := []struct {
		name string
		// deposit makes the disputed deposit and answers it with its
		// wallet and what the wallet received locked for it.
		deposit func(f *fixture) (d domain.Transaction, wallet string, own money.Cents)
	}{
		{"plain", func(f *fixture) (domain.Transaction, string, money.Cents) {
			return f.settle(f.newCharge(gross, 0)), f.merchant.ID, net
		}},
		{"split 50 % to a partner", func(f *fixture) (domain.Transaction, string, money.Cents) {
			return f.settle(f.newCharge(gross, 5_000)), f.merchant.ID, net - net.MulPercent(5_000)
		}},
		{"sub-account", func(f *fixture) (domain.Transaction, string, money.Cents) {
			sub := f.newSub("med-own")
			c := f.subCharge(gross, sub)
			if _, err := activities.InsertCharge(f.ctx, f.db, c, publicURL, nil); err != nil {
				f.t.Fatal(err)
			}
			return f.settle(c), sub, net
		}},
		{"PIX billing (notification fee 0.99)", func(f *fixture) (domain.Transaction, string, money.Cents) {
			b := f.newBilling(domain.MethodPix, gross)
			return f.settle(f.ownedChargeBy(activities.OwnerBilling, b.ID, gross)), f.merchant.ID, net - 99
		}},
		{"checkout session", func(f *fixture) (domain.Transaction, string, money.Cents) {
			_, c, _ := f.checkoutSession(gross)
			return f.settle(c), f.merchant.ID, net
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			d, wallet, own := tc.deposit(f)
			// A second deposit, still within its 24 h, and free money.
			if wallet == f.merchant.ID {
				f.settle(f.newCharge(gross, 0))
				f.fund(wallet, free)
			} else {
				c := f.subCharge(gross, wallet)
				if _, err := activities.InsertCharge(f.ctx, f.db, c, publicURL, nil); err != nil {
					t.Fatal(err)
				}
				f.settle(c)
				f.moveToSub(wallet, free)
			}
			before := [3]money.Cents{own + net + free, own + net, free}
			f.wantBalanceOf("before the MED", wallet, before)
			partner := f.balance(f.partner.ID)

			m := f.openMED(d, disputed, domain.Features{})
			f.wantEqual("blocked", m.Details.V.Med.Blocked, disputed)
			// The block takes the deposit's own locked money first and the
			// rest from free money: the second deposit stays locked.
			f.wantBalanceOf("after the hold", wallet, [3]money.Cents{own + net + free - disputed, net, own + free - disputed})
			f.wantEqual("partner untouched", f.balance(f.partner.ID), partner)

			a := &activities.MEDs{Base: f.base()}
			for range 2 { // the second call is a retried activity
				if err := a.ResolveMED(f.ctx, activities.ResolveMEDInput{ID: m.ID, Status: med.MedRejected}); err != nil {
					t.Fatal(err)
				}
			}
			f.wantBalanceOf("after the release", wallet, before)
			f.wantEqual("locked after the release", f.lockedBalance(wallet), money.Cents(0))
		})
	}
}
