package domain_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

func TestChargePrice(t *testing.T) {
	t.Parallel()
	flat := domain.Fees{PixInFixed: 50}
	pct := domain.Fees{PixInFixed: 10, PixInPercent: 150} // 0.10 + 1.5 %
	for _, c := range []struct {
		name            string
		fees            domain.Fees
		amount          money.Cents
		cover           bool
		gross, fee, net money.Cents
		wantErr         string
	}{
		{"fee out of the amount", flat, 1_000, false, 1_000, 50, 950, ""},
		{"fee added on top", flat, 950, true, 1_000, 50, 950, ""},
		{"percent out of the amount", pct, 10_000, false, 10_000, 160, 9_840, ""},
		{"percent on top nets exactly the amount", pct, 9_840, true, 10_000, 160, 9_840, ""},
		{"fee equal to the amount", flat, 50, false, 0, 0, 0, "amount"},
		{"fee above the amount", flat, 10, false, 0, 0, 0, "amount"},
		{"fees that cannot be covered", domain.Fees{PixInPercent: money.OneHundredPercent}, 100, true, 0, 0, 0, "cannot be covered"},
	} {
		t.Run(c.name, func(t *testing.T) {
			gross, fee, net, err := c.fees.ChargePrice(c.amount, c.cover)
			if c.wantErr != "" {
				if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want a 400 mentioning %q", err, c.wantErr)
				}
				return
			}
			if err != nil || gross != c.gross || fee != c.fee || net != c.net {
				t.Fatalf("got %d/%d/%d (%v), want gross %d fee %d net %d", gross, fee, net, err, c.gross, c.fee, c.net)
			}
		})
	}
}

func TestPixOutPrice(t *testing.T) {
	t.Parallel()
	f := domain.Fees{PixOutFixed: 50}
	for _, c := range []struct {
		name             string
		amount           money.Cents
		cover            bool
		fee, debit, sent money.Cents
		wantErr          bool
	}{
		{"merchant pays the fee on top", 2_000, true, 50, 2_050, 2_000, false},
		{"fee out of the amount", 2_000, false, 50, 2_000, 1_950, false},
		{"fee equal to the amount", 50, false, 0, 0, 0, true},
		{"tiny amount with the fee on top", 1, true, 50, 51, 1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fee, debit, sent, err := f.PixOutPrice(c.amount, c.cover)
			if c.wantErr {
				if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "amount") {
					t.Fatalf("err %v, want a 400 naming amount", err)
				}
				return
			}
			if err != nil || fee != c.fee || debit != c.debit || sent != c.sent {
				t.Fatalf("got fee %d debit %d sent %d (%v), want %d %d %d", fee, debit, sent, err, c.fee, c.debit, c.sent)
			}
		})
	}
}

func TestReviewReason(t *testing.T) {
	t.Parallel()
	th := money.Cents(100_000)
	zero := money.Cents(0)
	for _, c := range []struct {
		name      string
		threshold *money.Cents
		amount    money.Cents
		held      bool
	}{
		{"no threshold", nil, 1_000_000, false},
		{"threshold zero is off", &zero, 1_000_000, false},
		{"below", &th, 99_999, false},
		{"at", &th, 100_000, true},
		{"above", &th, 100_001, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			acct := domain.Account{SecurityReviewThreshold: c.threshold}
			r := acct.ReviewReason(c.amount)
			if (r != "") != c.held {
				t.Fatalf("reason %q, want held %v", r, c.held)
			}
			hold := acct.ReviewHold(c.amount)
			if (hold != nil) != c.held || (hold != nil && (!hold.Pending || hold.Reason != r)) {
				t.Fatalf("hold %+v, want held %v with reason %q", hold, c.held, r)
			}
		})
	}
}
