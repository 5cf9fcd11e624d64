package activities_test

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/fiscal"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
)

// fiscalCharge is a PENDING charge of amount that asked for a fiscal
// invoice (emitFiscalInvoice), as service.Charges.Create stores it.
func (f *fixture) fiscalCharge(amount money.Cents) domain.Transaction {
	f.t.Helper()
	c := f.newCharge(amount, 0)
	f.inTx(func(tx *sqlx.Tx) error {
		t, err := db.LockTransaction(f.ctx, tx, c.ID)
		if err != nil {
			return err
		}
		t.Details.V.FiscalInvoice = true
		c, err = db.UpdateTransaction(f.ctx, tx, t)
		return err
	})
	return c
}

func (f *fixture) invoice(id string) fiscal.FiscalInvoice {
	f.t.Helper()
	inv, err := db.GetFiscalInvoice(f.ctx, f.db, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return inv
}

// intents counts the workflow intents of a resource of a kind.
func (f *fixture) intents(kind, id string) int {
	f.t.Helper()
	var n int
	if err := f.db.GetContext(f.ctx, &n, `SELECT count(*) FROM workflow_launches WHERE kind = $1 AND resource_id = $2`, kind, id); err != nil {
		f.t.Fatal(err)
	}
	return n
}

// A paid charge that asked for a fiscal invoice opens exactly one, with
// its invoice.created event (after payment.paid) and its workflow's
// intent, however many times its transition runs (retries at once too).
func TestFiscalInvoiceOpensOnceWhenPaid(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := &activities.Charges{Base: f.base()}
	c := f.fiscalCharge(2500)
	f.resetPublished()
	n := paidNotice()
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs { // a retried activity, concurrently with itself
		wg.Go(func() { _, errs[i] = a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: n}) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	id := fiscal.FiscalInvoiceID(c.ID)
	inv := f.invoice(id)
	f.wantEqual("invoice", []any{inv.ChargeID, inv.AccountID, inv.Amount, inv.Status, *inv.APIKeyID},
		[]any{c.ID, f.merchant.ID, money.Cents(2500), fiscal.InvoiceCreated, "key_test"})
	f.wantEqual("invoice events", f.events(id), []string{domain.EventInvoiceCreated})
	f.wantEqual("published", f.publishedTypes(), []string{domain.EventPaymentPaid, domain.EventInvoiceCreated})
	f.wantEqual("intents", f.intents(activities.LaunchFiscalInvoice, id), 1)
	evs, err := db.EventsFor(f.ctx, f.db, id)
	if err != nil {
		t.Fatal(err)
	}
	var data map[string]any
	if err := json.Unmarshal(evs[0].Data, &data); err != nil {
		t.Fatal(err)
	}
	f.wantEqual("event data", data, map[string]any{"invoiceId": id})
	f.wantEqual("event key", *evs[0].APIKeyID, "key_test")

	// A charge that did not ask for one, and one that was not paid, open none.
	plain := f.newCharge(2500, 0)
	if _, err := a.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: plain.ID, Notice: paidNotice()}); err != nil {
		t.Fatal(err)
	}
	failed := f.fiscalCharge(2500)
	if _, err := a.FailCharge(f.ctx, failed.ID); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{plain.ID, failed.ID} {
		if _, err := db.GetFiscalInvoice(f.ctx, f.db, fiscal.FiscalInvoiceID(id)); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("charge %s: invoice lookup = %v, want not found", id, err)
		}
	}
}

// Submission asks the issuer once and clears the intent; the answer moves
// the invoice once; a late, contrary answer changes nothing.
func TestFiscalInvoiceIssuedOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := f.fiscalCharge(2500)
	if _, err := (&activities.Charges{Base: f.base()}).SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: paidNotice()}); err != nil {
		t.Fatal(err)
	}
	id := fiscal.FiscalInvoiceID(c.ID)
	proc := processormock.NewMockFiscal(gomock.NewController(t))
	proc.EXPECT().IssueInvoice(gomock.Any(), gomock.Cond(func(r processor.InvoiceRequest) bool {
		return r.ID == id && r.ChargeID == c.ID && r.Amount == 2500 && r.Description == "Pedido 42" && r.Payer != nil
	})).Return(processor.Submission{ReferenceID: "iss-1"}, nil).Times(1)
	a := &activities.FiscalInvoices{Base: f.base(), Processor: proc}
	for range 2 {
		inv, err := a.SubmitInvoice(f.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		f.wantEqual("submitted", inv.Status, fiscal.InvoiceProcessing)
	}
	f.wantEqual("reference", *f.invoice(id).ReferenceID, "iss-1")
	f.wantEqual("intents", f.intents(activities.LaunchFiscalInvoice, id), 0)

	issued := processor.InvoiceNotice{InvoiceID: id, Outcome: processor.OutcomeIssued, Number: "NFS-7", At: time.Now()}
	for range 2 {
		inv, err := a.ConcludeInvoice(f.ctx, issued)
		if err != nil {
			t.Fatal(err)
		}
		f.wantEqual("issued", inv.Status, fiscal.InvoiceIssued)
	}
	late := processor.InvoiceNotice{InvoiceID: id, Outcome: processor.OutcomeFailed, Reason: "late", At: time.Now()}
	if inv, err := a.ConcludeInvoice(f.ctx, late); err != nil || inv.Status != fiscal.InvoiceIssued {
		t.Fatalf("late failure: %v, %v", inv.Status, err)
	}
	inv := f.invoice(id)
	f.wantEqual("number", *inv.Number, "NFS-7")
	f.wantEqual("events", f.events(id), []string{domain.EventInvoiceCreated, domain.EventInvoiceProcessing, domain.EventInvoiceIssued})
}

// The refund's completion cancels the invoice once, in its transaction;
// WithdrawInvoice then tells the issuer. A FAILED invoice is not cancelled
// (nothing was issued), and the issuer is not told.
func TestFiscalInvoiceCancelledByRefund(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 1000)
	charges := &activities.Charges{Base: f.base()}
	ctrl := gomock.NewController(t)
	proc := processormock.NewMockFiscal(ctrl)
	proc.EXPECT().IssueInvoice(gomock.Any(), gomock.Any()).Return(processor.Submission{ReferenceID: "iss"}, nil).Times(2)
	inv := &activities.FiscalInvoices{Base: f.base(), Processor: proc}
	refunds := &activities.Refunds{Base: f.base(), Processor: processormock.NewMockPix(ctrl)}

	// paidAndRefunded settles a fiscal charge, has the issuer answer, and
	// refunds it (the refund's completion run twice: a retry).
	paidAndRefunded := func(outcome string) string {
		c := f.fiscalCharge(2500)
		if _, err := charges.SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: paidNotice()}); err != nil {
			t.Fatal(err)
		}
		id := fiscal.FiscalInvoiceID(c.ID)
		if _, err := inv.SubmitInvoice(f.ctx, id); err != nil {
			t.Fatal(err)
		}
		if _, err := inv.ConcludeInvoice(f.ctx, processor.InvoiceNotice{InvoiceID: id, Outcome: outcome, Number: "N", Reason: "R", At: time.Now()}); err != nil {
			t.Fatal(err)
		}
		f.requestRefund(c.ID)
		for range 2 {
			n := processor.RefundNotice{Outcome: processor.OutcomeSettled, At: time.Now()}
			if err := refunds.CompleteRefund(f.ctx, activities.CompleteRefundInput{ID: c.ID, Notice: n}); err != nil {
				t.Fatal(err)
			}
		}
		return id
	}

	issued := paidAndRefunded(processor.OutcomeIssued)
	f.wantEqual("cancelled", f.invoice(issued).Status, fiscal.InvoiceCancelled)
	f.wantEqual("events", f.events(issued), []string{domain.EventInvoiceCreated, domain.EventInvoiceProcessing,
		domain.EventInvoiceIssued, domain.EventInvoiceCancelled})
	proc.EXPECT().CancelInvoice(gomock.Any(), issued).Return(nil).Times(2) // WithdrawInvoice retried
	for range 2 {
		if err := inv.WithdrawInvoice(f.ctx, issued); err != nil {
			t.Fatal(err)
		}
	}

	failed := paidAndRefunded(processor.OutcomeFailed)
	f.wantEqual("failed stays", f.invoice(failed).Status, fiscal.InvoiceFailed)
	f.wantEqual("failed events", f.events(failed), []string{domain.EventInvoiceCreated, domain.EventInvoiceProcessing, domain.EventInvoiceFailed})
	if err := inv.WithdrawInvoice(f.ctx, failed); err != nil { // asks the issuer nothing (no CancelInvoice expected)
		t.Fatal(err)
	}
}
