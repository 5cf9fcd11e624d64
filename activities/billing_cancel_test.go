package activities_test

import (
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	billingdom "github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
)

// cancel cancels the fixture's billing as the cancel paths do.
func (f *fixture) cancelBilling(a *activities.Billings, id string) {
	f.t.Helper()
	if s, err := a.CancelBilling(f.ctx, id); err != nil || s != billingdom.BillingCanceled {
		f.t.Fatalf("CancelBilling = %s, %v", s, err)
	}
}

func TestCanceledBoletoIsVoidedOnceAtTheRegistrar(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockBillings(gomock.NewController(t))
	a := &activities.Billings{Base: f.base(), Processor: proc}
	b := f.newBilling(domain.MethodBoleto, 10000)
	// Still payable: nothing to void (the mock refuses any call).
	if s, err := a.VoidBoleto(f.ctx, b.ID); err != nil || s != billingdom.BillingPending {
		t.Fatalf("VoidBoleto of a pending boleto = %s, %v", s, err)
	}
	f.cancelBilling(a, b.ID)
	proc.EXPECT().CancelBoleto(gomock.Any(), processor.BoletoCancelRequest{BillingID: b.ID}).Return(nil).Times(1)
	for i := range 2 { // the second call is a retried activity: it finds the void and asks nothing
		if s, err := a.VoidBoleto(f.ctx, b.ID); err != nil || s != billingdom.BillingCanceled {
			t.Fatalf("VoidBoleto #%d = %s, %v", i+1, s, err)
		}
	}
	if got := f.billing(b.ID); !got.Details.V.BoletoVoided || got.Details.V.LatePayment {
		t.Fatalf("voided billing details %+v", got.Details.V)
	}
	// A canceled debit card billing has no boleto to void.
	debit := f.newBilling(domain.MethodCardDebit, 5000)
	f.cancelBilling(a, debit.ID)
	if s, err := a.VoidBoleto(f.ctx, debit.ID); err != nil || s != billingdom.BillingCanceled {
		t.Fatalf("VoidBoleto of a card billing = %s, %v", s, err)
	}
}

// The registrar took the payment before the void: the void voids nothing
// and the paid notice books the payment once, a late payment credited to
// the merchant exactly as a payment on time (docs/ledger.md).
func TestPaymentTakenBeforeTheVoidIsBookedOnceAsALatePayment(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockBillings(gomock.NewController(t))
	a := &activities.Billings{Base: f.base(), Processor: proc}
	b := f.newBilling(domain.MethodBoleto, 10000) // fee 1.99, notification 0.99
	f.cancelBilling(a, b.ID)
	proc.EXPECT().CancelBoleto(gomock.Any(), gomock.Any()).Return(processor.ErrBoletoPaid)
	if s, err := a.VoidBoleto(f.ctx, b.ID); err != nil || s != billingdom.BillingCanceled {
		t.Fatalf("VoidBoleto of a paid boleto = %s, %v", s, err)
	}
	if f.billing(b.ID).Details.V.BoletoVoided {
		t.Fatal("a boleto the registrar was paid for is recorded voided")
	}
	in := activities.BillingPaidInput{BillingID: b.ID, Notice: processor.BillingNotice{Outcome: processor.OutcomePaid, At: time.Now().UTC()}}
	for i := range 2 { // the workflow's step and the Inbox's, or a retry: booked once
		status, err := activities.BookBillingPayment(f.ctx, f.db, in)
		if err != nil || status != billingdom.BillingReceived {
			t.Fatalf("BookBillingPayment #%d = %s, %v", i+1, status, err)
		}
	}
	got := f.billing(b.ID)
	if !got.Details.V.LatePayment || got.PaidAt == nil || got.AccountTransactionID == nil {
		t.Fatalf("late payment = %+v", got)
	}
	f.wantEqual("paid posting", f.moves("billing:"+b.ID+":paid"), map[string]money.Cents{
		billingdom.LedgerBillingClearing:      -10000,
		domain.LedgerFees:                     199 + 99,
		domain.AvailableLedger(f.merchant.ID): 10000 - 199 - 99,
	})
	// Once booked, the void has nothing left to do.
	if s, err := a.VoidBoleto(f.ctx, b.ID); err != nil || s != billingdom.BillingReceived {
		t.Fatalf("VoidBoleto after the late payment = %s, %v", s, err)
	}
	// A PIX billing is paid through its charge only, canceled or not.
	pix := f.newBilling(domain.MethodPix, 10000)
	f.cancelBilling(a, pix.ID)
	if s, err := activities.BookBillingPayment(f.ctx, f.db, activities.BillingPaidInput{BillingID: pix.ID, Notice: in.Notice}); err != nil || s != billingdom.BillingCanceled {
		t.Fatalf("BookBillingPayment of a canceled PIX billing = %s, %v", s, err)
	}
}
