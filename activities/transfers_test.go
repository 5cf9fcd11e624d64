package activities_test

import (
	"errors"
	"testing"

	"github.com/jmoiron/sqlx"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
)

func settledNotice() processor.TransferNotice {
	n := paidNotice()
	return processor.TransferNotice{Outcome: processor.OutcomeSettled, EndToEndID: n.EndToEndID, At: n.At,
		Recipient: &domain.Party{Name: "Ana", Document: "***.982.247-**", Bank: "Banco", PixKey: "ana@example.com"}}
}

func TestSubmitTransferCallsProcessorOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 100000)
	tr := f.newTransfer(10000, false) // fee out of the amount: the recipient gets R$ 99.50
	f.wantEqual("net", tr.NetAmount, money.Cents(9950))

	proc := processormock.NewMockPix(gomock.NewController(t))
	proc.EXPECT().SendPix(gomock.Any(), processor.PixOutRequest{
		ID: tr.ID, Amount: 9950, PixKey: "ana@example.com", PixKeyType: "EMAIL", Description: "Aluguel",
	}).Return(processor.Submission{ReferenceID: "ref-out-1"}, nil).Times(1)
	a := &activities.Transfers{Base: f.base(), Processor: proc}

	for i := range 2 { // the second call is a retry after the first committed
		if err := a.SubmitTransfer(f.ctx, tr.ID); err != nil {
			t.Fatalf("SubmitTransfer #%d: %v", i+1, err)
		}
	}
	got := f.get(tr.ID, domain.TypePixOut)
	f.wantEqual("status", got.Status, domain.StatusProcessing)
	f.wantEqual("referenceId", *got.ReferenceID, "ref-out-1")
	f.wantEqual("events", f.events(tr.ID), []string{domain.EventTransferCreated})
	f.wantEqual("postings", f.postings(tr.ID), []string{"transfer:" + tr.ID + ":reserve"})
}

func TestSubmitTransferProcessorError(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 100000)
	tr := f.newTransfer(10000, true)
	down := errors.New("processor unreachable")
	proc := processormock.NewMockPix(gomock.NewController(t))
	gomock.InOrder(
		proc.EXPECT().SendPix(gomock.Any(), gomock.Any()).Return(processor.Submission{}, down),
		proc.EXPECT().SendPix(gomock.Any(), gomock.Any()).Return(processor.Submission{ReferenceID: "ref-2"}, nil),
	)
	a := &activities.Transfers{Base: f.base(), Processor: proc}

	if err := a.SubmitTransfer(f.ctx, tr.ID); !errors.Is(err, down) {
		t.Fatalf("SubmitTransfer = %v, want %v", err, down)
	}
	got := f.get(tr.ID, domain.TypePixOut)
	f.wantEqual("status after error", got.Status, domain.StatusPending)
	f.wantEqual("referenceId after error", got.ReferenceID, (*string)(nil))
	f.wantEqual("pending after error", f.balance(f.merchant.ID).Pending, money.Cents(10050))

	if err := a.SubmitTransfer(f.ctx, tr.ID); err != nil { // Temporal's retry
		t.Fatal(err)
	}
	f.wantEqual("status after retry", f.get(tr.ID, domain.TypePixOut).Status, domain.StatusProcessing)
}

func TestCompleteTransferPostsOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 100000)
	tr := f.newTransfer(10000, true) // the merchant pays the fee: debit R$ 100.50
	f.wantEqual("reserved", f.balance(f.merchant.ID), dbBalance(100000-10050, 10050))

	a := &activities.Transfers{Base: f.base(), Processor: processormock.NewMockPix(gomock.NewController(t))}
	n := settledNotice()
	f.resetPublished()
	for i := range 2 {
		if err := a.CompleteTransfer(f.ctx, activities.CompleteTransferInput{ID: tr.ID, Notice: n}); err != nil {
			t.Fatalf("CompleteTransfer #%d: %v", i+1, err)
		}
	}
	got := f.get(tr.ID, domain.TypePixOut)
	f.wantEqual("status", got.Status, domain.StatusCompleted)
	f.wantEqual("endToEndId", *got.EndToEndID, n.EndToEndID)
	f.wantEqual("recipient", *got.Recipient.Ptr(), *n.Recipient)
	f.wantEqual("postings", f.postings(tr.ID), []string{"transfer:" + tr.ID + ":reserve", "transfer:" + tr.ID + ":settle"})
	f.wantEqual("settle posting", f.moves("transfer:"+tr.ID+":settle"), map[string]money.Cents{
		domain.PendingLedger(f.merchant.ID): -10050,
		domain.LedgerPixClearing:            10000,
		domain.LedgerFees:                   50,
	})
	f.wantEqual("events", f.events(tr.ID), []string{domain.EventTransferCreated, domain.EventTransferCompleted})
	f.wantEqual("published", f.publishedTypes(), []string{domain.EventTransferCompleted})
	f.wantEqual("balance", f.balance(f.merchant.ID), dbBalance(100000-10050, 0))

	// A late failure cannot undo a settled transfer.
	if err := a.FailTransfer(f.ctx, activities.FailInput{ID: tr.ID, Reason: "late"}); err != nil {
		t.Fatal(err)
	}
	f.wantEqual("status after fail", f.get(tr.ID, domain.TypePixOut).Status, domain.StatusCompleted)
	f.wantEqual("postings after fail", len(f.postings(tr.ID)), 2)
	f.wantEqual("events after fail", len(f.events(tr.ID)), 2)
	f.wantEqual("balance after fail", f.balance(f.merchant.ID), dbBalance(100000-10050, 0))
}

func TestFailTransferReturnsReserveExactly(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 100000)
	tr := f.pixOut(12345, true)
	tr.Details.V.SecurityReview = &domain.SecurityReview{Pending: true, Reason: "threshold"}
	f.inTx(func(tx *sqlx.Tx) error { return activities.ReserveTransfer(f.ctx, tx, tr, publicURL) })
	f.wantEqual("reserved", f.balance(f.merchant.ID), dbBalance(100000-12395, 12395))

	a := &activities.Transfers{Base: f.base(), Processor: processormock.NewMockPix(gomock.NewController(t))}
	for range 2 {
		if err := a.FailTransfer(f.ctx, activities.FailInput{ID: tr.ID, Reason: "rejected"}); err != nil {
			t.Fatal(err)
		}
	}
	got := f.get(tr.ID, domain.TypePixOut)
	f.wantEqual("status", got.Status, domain.StatusFailed)
	f.wantEqual("review pending", got.Details.V.SecurityReview.Pending, false)
	f.wantEqual("balance", f.balance(f.merchant.ID), dbBalance(100000, 0))
	f.wantEqual("postings", f.postings(tr.ID), []string{"transfer:" + tr.ID + ":reserve", "transfer:" + tr.ID + ":release"})
	f.wantEqual("release posting", f.moves("transfer:"+tr.ID+":release"), map[string]money.Cents{
		domain.PendingLedger(f.merchant.ID):   -12395,
		domain.AvailableLedger(f.merchant.ID): 12395,
	})
	f.wantEqual("events", f.events(tr.ID), []string{domain.EventTransferCreated, domain.EventTransferFailed})

	// A late settlement cannot complete a failed transfer.
	if err := a.CompleteTransfer(f.ctx, activities.CompleteTransferInput{ID: tr.ID, Notice: settledNotice()}); err != nil {
		t.Fatal(err)
	}
	f.wantEqual("status after complete", f.get(tr.ID, domain.TypePixOut).Status, domain.StatusFailed)
	f.wantEqual("postings after complete", len(f.postings(tr.ID)), 2)
	f.wantEqual("balance after complete", f.balance(f.merchant.ID), dbBalance(100000, 0))
}

func TestEnsureTransfer(t *testing.T) {
	t.Parallel()
	t.Run("short of withdrawable money: FAILED, nothing debited", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.settledCharge(10000) // R$ 99.50 received, locked for 24 h
		f.fund(f.merchant.ID, 1000)
		before := f.balance(f.merchant.ID)
		f.wantEqual("withdrawable", before.Withdrawable, money.Cents(1000))

		a := &activities.Transfers{Base: f.base(), Processor: processormock.NewMockPix(gomock.NewController(t))}
		tr := f.pixOut(2000, true) // debit R$ 20.50: available covers it, withdrawable does not
		for range 2 {
			status, err := a.EnsureTransfer(f.ctx, tr)
			if err != nil || status != domain.StatusFailed {
				t.Fatalf("EnsureTransfer = %q, %v; want FAILED", status, err)
			}
		}
		f.wantEqual("stored status", f.get(tr.ID, domain.TypePixOut).Status, domain.StatusFailed)
		f.wantEqual("events", f.events(tr.ID), []string{domain.EventTransferFailed})
		f.wantEqual("postings", f.postings(tr.ID), []string{})
		f.wantEqual("balance", f.balance(f.merchant.ID), before)
	})
	t.Run("enough money: reserved once", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.fund(f.merchant.ID, 5000)
		a := &activities.Transfers{Base: f.base(), Processor: processormock.NewMockPix(gomock.NewController(t))}
		tr := f.pixOut(2000, true)
		for range 2 {
			status, err := a.EnsureTransfer(f.ctx, tr)
			if err != nil || status != domain.StatusPending {
				t.Fatalf("EnsureTransfer = %q, %v; want PENDING", status, err)
			}
		}
		f.wantEqual("events", f.events(tr.ID), []string{domain.EventTransferCreated})
		f.wantEqual("postings", f.postings(tr.ID), []string{"transfer:" + tr.ID + ":reserve"})
		f.wantEqual("balance", f.balance(f.merchant.ID), dbBalance(5000-2050, 2050))
	})
	t.Run("after the API committed: nothing more", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.fund(f.merchant.ID, 5000)
		a := &activities.Transfers{Base: f.base(), Processor: processormock.NewMockPix(gomock.NewController(t))}
		tr := f.newTransfer(4000, true) // leaves R$ 9.50: a second reserve would fail
		status, err := a.EnsureTransfer(f.ctx, tr)
		if err != nil || status != domain.StatusPending {
			t.Fatalf("EnsureTransfer = %q, %v; want PENDING", status, err)
		}
		f.wantEqual("postings", f.postings(tr.ID), []string{"transfer:" + tr.ID + ":reserve"})
		f.wantEqual("balance", f.balance(f.merchant.ID), dbBalance(5000-4050, 4050))
	})
}

// dbBalance is the balance of an account holding no locked money.
func dbBalance(available, pending money.Cents) db.Balance {
	return db.Balance{Available: available, Pending: pending, Withdrawable: available}
}
