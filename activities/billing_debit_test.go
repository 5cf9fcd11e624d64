package activities_test

import (
	"errors"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	billingdom "github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
)

// cardToken stores a card token of the fixture's merchant.
func (f *fixture) cardToken(vault string) db.CardTokenRow {
	f.t.Helper()
	tok, err := db.InsertCardToken(f.ctx, f.db, db.CardTokenRow{ID: domain.NewID("ctk_"), AccountID: f.merchant.ID, ProcessorToken: vault,
		Brand: "VISA", Last4: "1111", ExpiryMonth: 12, ExpiryYear: 2035})
	if err != nil {
		f.t.Fatal(err)
	}
	return tok
}

// A debit card billing keeps its payer's first card; its charge asks the
// acquirer once per billing (a retry after the acquirer's refusal asks
// again, one after its acceptance finds the reference and asks nothing), a
// signal naming another card or a billing paid asks nothing.
func TestDebitCardAttachedOnceChargedOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	b := f.newBilling(domain.MethodCardDebit, 4000)
	first, second := f.cardToken("vault-1"), f.cardToken("vault-2")
	got, err := activities.AttachDebitCard(f.ctx, f.db, b.ID, first)
	if err != nil || got.Details.V.CardToken != first.ID || got.Details.V.CardLast4 != "1111" {
		t.Fatalf("attach = %+v, %v", got.Details.V, err)
	}
	if got, err := activities.AttachDebitCard(f.ctx, f.db, b.ID, second); !errors.Is(err, activities.ErrDebitCardTaken) || got.Details.V.CardToken != first.ID {
		t.Fatalf("second card = %s, %v", got.Details.V.CardToken, err)
	}

	proc := processormock.NewMockBillings(gomock.NewController(t))
	want := processor.CardChargeRequest{ID: b.ID, Token: "vault-1", Method: domain.MethodCardDebit, Amount: 4000, Installments: 1}
	gomock.InOrder(
		proc.EXPECT().ChargeCard(gomock.Any(), want).Return(processor.Submission{}, errors.New("acquirer away")),
		proc.EXPECT().ChargeCard(gomock.Any(), want).Return(processor.Submission{ReferenceID: "acq-1"}, nil),
	)
	a := &activities.Billings{Base: f.base(), Processor: proc}
	if err := a.ChargeDebitCard(f.ctx, activities.DebitCardInput{BillingID: b.ID, CardToken: second.ID}); err != nil {
		t.Fatalf("another card: %v", err)
	}
	if err := a.ChargeDebitCard(f.ctx, activities.DebitCardInput{BillingID: b.ID, CardToken: first.ID}); err == nil {
		t.Fatal("the acquirer's refusal is not an error (no retry)")
	}
	for i := range 2 { // the second is a retry after the acceptance
		if err := a.ChargeDebitCard(f.ctx, activities.DebitCardInput{BillingID: b.ID, CardToken: first.ID}); err != nil {
			t.Fatalf("ChargeDebitCard #%d: %v", i+1, err)
		}
	}
	if got := f.billing(b.ID); got.ExternalID == nil || *got.ExternalID != "acq-1" || got.Status != billingdom.BillingPending {
		t.Fatalf("charged billing = %+v", got)
	}

	// The approval confirms it as a credit card's; then nothing more.
	status, err := a.PayBilling(f.ctx, activities.BillingPaidInput{BillingID: b.ID,
		Notice: processor.BillingNotice{Outcome: processor.OutcomePaid, At: time.Now(), ReferenceID: "acq-1"}})
	if err != nil || status != billingdom.BillingConfirmed {
		t.Fatalf("PayBilling = %s, %v", status, err)
	}
	if err := a.ChargeDebitCard(f.ctx, activities.DebitCardInput{BillingID: b.ID, CardToken: first.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := activities.AttachDebitCard(f.ctx, f.db, b.ID, second); !errors.Is(err, activities.ErrBillingNotPayable) {
		t.Fatalf("a paid billing takes a card: %v", err)
	}
	f.verifyLedger()
}

// Only a debit card billing takes a card on its invoice page.
func TestAttachDebitCardRefusesOtherMethods(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	b := f.newBilling(domain.MethodBoleto, 1000)
	if _, err := activities.AttachDebitCard(f.ctx, f.db, b.ID, f.cardToken("vault-x")); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("boleto: %v", err)
	}
}
