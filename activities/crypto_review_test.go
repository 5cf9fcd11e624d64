package activities_test

import (
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.temporal.io/sdk/temporal"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	cryptodom "github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
)

// heldCryptoWithdrawal stores a withdrawal of amount, reserved, held for
// review with decision (pending when ""), its quote expired an hour ago.
func (f *fixture) heldCryptoWithdrawal(amount money.Cents, decision string) domain.Transaction {
	f.t.Helper()
	w := f.cryptoRecord(domain.TypeCryptoOut, amount)
	w.Details.V.Crypto.QuoteExpiresAt = domain.TimePtr(time.Now().Add(-time.Hour))
	w.Details.V.SecurityReview = &domain.SecurityReview{Pending: decision == "", Decision: decision}
	f.inTx(func(tx *sqlx.Tx) error { return activities.ReserveCryptoWithdrawal(f.ctx, tx, w) })
	return w
}

// A hold outlived the quote and the coin rose: the withdrawal is priced
// again once (rounded down), the new rate and units are stored, and those
// units are sent; a retry prices nothing again.
func TestRepriceCryptoWithdrawalAfterAnExpiredQuote(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 20000)
	w := f.heldCryptoWithdrawal(10000, domain.DecisionApprove)
	fresh := f.cryptoRecord(domain.TypeCryptoOut, 5000) // its quote still binds
	f.inTx(func(tx *sqlx.Tx) error { return activities.ReserveCryptoWithdrawal(f.ctx, tx, fresh) })
	units := cryptodom.CryptoCurrencies["ETH"].PayUnits(10000, 1_500_000, false)
	if units >= 833333 {
		t.Fatalf("a dearer coin buys fewer units: %d", units)
	}
	proc := processormock.NewMockCrypto(gomock.NewController(t))
	proc.EXPECT().CryptoRate(gomock.Any(), "ETH").Return(processor.CryptoRate{Rate: 1_500_000, ValidFor: time.Minute}, nil).Times(1)
	proc.EXPECT().SendCrypto(gomock.Any(), processor.CryptoOutRequest{ID: w.ID, Currency: "ETH", Units: units,
		Address: w.Details.V.Crypto.Address}).Return(processor.Submission{ReferenceID: "cout-2"}, nil).Times(1)
	a := &activities.Crypto{Base: f.base(), Processor: proc}
	for range 2 {
		if status, err := a.RepriceCryptoWithdrawal(f.ctx, w.ID); err != nil || status != domain.StatusPending {
			t.Fatalf("RepriceCryptoWithdrawal = %s, %v", status, err)
		}
	}
	if status, err := a.RepriceCryptoWithdrawal(f.ctx, fresh.ID); err != nil || status != domain.StatusPending {
		t.Fatalf("unexpired quote: %s, %v", status, err)
	}
	c := f.get(w.ID, domain.TypeCryptoOut).Details.V.Crypto
	if c.Rate != 1_500_000 || c.PayUnits != units || c.RepricedAt == nil {
		t.Fatalf("re-priced block %+v", c)
	}
	f.wantEqual("fresh units", f.get(fresh.ID, domain.TypeCryptoOut).Details.V.Crypto.PayUnits, int64(833333))
	if err := a.SubmitCryptoWithdrawal(f.ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	f.wantBalance(5000, 15000) // the BRL reserved is unchanged
}

// An amount that buys no unit at the new rate fails: its reserve returns.
func TestRepriceCryptoWithdrawalBuyingNothingFailsIt(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 100)
	w := f.heldCryptoWithdrawal(1, domain.DecisionApprove)
	proc := processormock.NewMockCrypto(gomock.NewController(t))
	proc.EXPECT().CryptoRate(gomock.Any(), "ETH").Return(processor.CryptoRate{Rate: 1_000_000_000_000}, nil).Times(1)
	a := &activities.Crypto{Base: f.base(), Processor: proc}
	for range 2 {
		if status, err := a.RepriceCryptoWithdrawal(f.ctx, w.ID); err != nil || status != domain.StatusFailed {
			t.Fatalf("RepriceCryptoWithdrawal = %s, %v", status, err)
		}
	}
	f.wantBalance(100, 0)
}

// The submit steps read the review under the row lock: a withdrawal still
// held, or rejected (a run restarted from the row before the reserve was
// returned), is never sent, whatever the workflow's input said.
func TestSubmitRefusesAWithdrawalNotApproved(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 100000)
	ctrl := gomock.NewController(t)
	pix := processormock.NewMockPix(ctrl) // no send expected until approved
	crypto := &activities.Crypto{Base: f.base(), Processor: processormock.NewMockCrypto(ctrl)}
	transfers := &activities.Transfers{Base: f.base(), Processor: pix}
	for _, decision := range []string{"", domain.DecisionReject} {
		w := f.heldCryptoWithdrawal(1000, decision)
		var appErr *temporal.ApplicationError
		if err := crypto.SubmitCryptoWithdrawal(f.ctx, w.ID); !errors.As(err, &appErr) || appErr.Type() != activities.ErrTypeReviewHold || !appErr.NonRetryable() {
			t.Fatalf("crypto %q: %v", decision, err)
		}
		tr := f.pixOut(1000, false)
		tr.Details.V.SecurityReview = &domain.SecurityReview{Pending: decision == "", Decision: decision}
		f.inTx(func(tx *sqlx.Tx) error { return activities.ReserveTransfer(f.ctx, tx, tr, publicURL) })
		if err := transfers.SubmitTransfer(f.ctx, tr.ID); !errors.As(err, &appErr) || appErr.Type() != activities.ErrTypeReviewHold {
			t.Fatalf("PIX out %q: %v", decision, err)
		}
		f.wantEqual("crypto status", f.get(w.ID, domain.TypeCryptoOut).Status, domain.StatusPending)
		f.wantEqual("PIX out status", f.get(tr.ID, domain.TypePixOut).Status, domain.StatusPending)
	}
	tr := f.pixOut(1000, false)
	tr.Details.V.SecurityReview = &domain.SecurityReview{Decision: domain.DecisionApprove}
	f.inTx(func(tx *sqlx.Tx) error { return activities.ReserveTransfer(f.ctx, tx, tr, publicURL) })
	pix.EXPECT().SendPix(gomock.Any(), gomock.Any()).Return(processor.Submission{ReferenceID: "ok"}, nil).Times(1)
	if err := transfers.SubmitTransfer(f.ctx, tr.ID); err != nil {
		t.Fatalf("approved PIX out: %v", err)
	}
}
