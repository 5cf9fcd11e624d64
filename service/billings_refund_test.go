package service_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
	"github.com/jangada/jangada/service"
)

// paidBoleto stores a boleto billing of amount for acct and pays it as the
// processor's notice would.
func paidBoleto(t *testing.T, acct domain.Account, amount money.Cents) domain.Billing {
	t.Helper()
	b := pendingBoleto(t, acct, amount)
	a := &activities.Billings{Base: activities.Base{DB: sharedDB}}
	if _, err := a.PayBilling(t.Context(), activities.BillingPaidInput{BillingID: b.ID,
		Notice: processor.BillingNotice{Outcome: processor.OutcomePaid, At: time.Now().UTC()}}); err != nil {
		t.Fatal(err)
	}
	return b
}

// pendingBoleto stores a PENDING boleto billing of amount for acct.
func pendingBoleto(t *testing.T, acct domain.Account, amount money.Cents) domain.Billing {
	t.Helper()
	fee, notif, net, err := acct.Fees.BillingPrice(domain.MethodBoleto, amount)
	if err != nil {
		t.Fatal(err)
	}
	b := domain.Billing{
		ID: domain.NewID("bil_"), AccountID: acct.ID, Method: domain.MethodBoleto, Status: domain.BillingPending, Amount: amount,
		FeeAmount: fee, NotificationFee: notif, NetAmount: net, InstallmentCount: 1, DueDate: domain.Today(time.Now()).AddDate(0, 0, 3),
		Customer: domain.SomeJSON(domain.BillingCustomer{Name: "Ana", TaxID: "52998224725"}), PageToken: domain.NewID("pg_"),
		CreatedAt: domain.NewTime(time.Now()),
	}
	if err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
		_, err := activities.InsertBilling(t.Context(), tx, b)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBillingRefundRefusedForBalanceAsksNoProcessor: a refund the merchant's
// balance cannot pay is refused before the processor returns any money (the
// processor asked first would have refunded the payer while the merchant is
// told the refund failed).
func TestBillingRefundRefusedForBalanceAsksNoProcessor(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Refund Balance Ltda")
	b := paidBoleto(t, acct, 10_000)
	// The merchant's money is taken by an operator (its available is 0).
	if _, err := service.Adjust(t.Context(), sharedDB, acct.ID, -b.NetAmount, "chargeback", "take-"+b.ID); err != nil {
		t.Fatal(err)
	}
	proc := processormock.NewMockBillings(gomock.NewController(t))
	proc.EXPECT().RefundBilling(gomock.Any(), gomock.Any()).Times(0)
	s := &service.Billings{DB: sharedDB, Processor: proc}
	if _, err := s.Refund(t.Context(), acct, domain.NewBillingRefund{ID: b.ID, Amount: 5_000}); !errors.Is(err, domain.ErrInsufficientBalance) {
		t.Fatalf("Refund = %v, want insufficient balance", err)
	}
}

// TestConcurrentPartialBillingRefundsNeverRefundMoreThanPaid: two partial
// refunds asked at once (60 + 50 of 100) are one refund of 60 and one 400;
// the processor is asked to return 60 only, never 110.
func TestConcurrentPartialBillingRefundsNeverRefundMoreThanPaid(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Refund Race Ltda")
	b := paidBoleto(t, acct, 10_000)
	proc := processormock.NewMockBillings(gomock.NewController(t))
	var mu sync.Mutex
	var asked money.Cents
	entered := make(chan struct{}, 2)
	proc.EXPECT().RefundBilling(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, r processor.BillingRefundRequest) (processor.Submission, error) {
		mu.Lock()
		asked += r.Amount
		mu.Unlock()
		entered <- struct{}{}
		// Hold the first refund at the processor until the other arrives
		// there too (it must not: it waits for this one), or 500 ms pass.
		select {
		case <-time.After(500 * time.Millisecond):
		case <-t.Context().Done():
		}
		return processor.Submission{ReferenceID: "ref_" + r.RefundID}, nil
	}).AnyTimes()
	s := &service.Billings{DB: sharedDB, Processor: proc}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, amount := range []money.Cents{6_000, 5_000} {
		wg.Go(func() {
			_, errs[i] = s.Refund(t.Context(), acct, domain.NewBillingRefund{ID: b.ID, Amount: amount, IdempotencyKey: "race-" + b.ID + "-" + amount.String()})
		})
	}
	wg.Wait()
	got, err := db.BillingByID(t.Context(), sharedDB, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if asked > b.Amount || asked != got.RefundedAmount {
		t.Fatalf("processor asked to refund %s, billing refunded %s of %s (errors %v)", asked, got.RefundedAmount, b.Amount, errs)
	}
	if (errs[0] == nil) == (errs[1] == nil) {
		t.Fatalf("errors %v: want exactly one refund refused", errs)
	}
}

// TestChargeOfABillingIsRefundedThroughItsBilling: a PIX billing's charge
// is refunded through /billings/refund only; a deposit refund of it would
// return the money a second time beside the billing's own refund.
func TestChargeOfABillingIsRefundedThroughItsBilling(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Billing Charge Refund Ltda")
	fund(t, acct.ID, 10_000) // the refund is refused for its owner, not for money
	e2e := "E" + domain.NewID("")[:31]
	charge := storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixIn, Status: domain.StatusCompleted,
		Amount: 1_000, NetAmount: 1_000, EndToEndID: &e2e, Description: "billing charge",
		Details: domain.SomeJSON(domain.Details{Owner: &domain.ChargeOwner{Kind: activities.OwnerBilling, ID: "bil_x"}})})
	refunds := &service.Refunds{DB: sharedDB}
	_, err := refunds.Create(t.Context(), acct, domain.NewRefund{DepositRef: charge.ID, Amount: 1_000, Nature: "ORIGINAL"})
	if !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("deposit refund of a billing's charge = %v, want invalid", err)
	}
}

// TestCardBillingCannotBeCanceledOnceWithTheAcquirer: a card billing's sale
// goes to the acquirer when it is created (its workflow's first step), and
// an approval of a canceled billing would be refused (no longer payable):
// the payer's card charged, the merchant never credited. Its cancel is a
// 400 that moves nothing; a paid card billing is refunded instead.
func TestCardBillingCannotBeCanceledOnceWithTheAcquirer(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Card Cancel Ltda")
	fee, notif, net, err := acct.Fees.BillingPrice(domain.MethodCardCredit, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	b := domain.Billing{
		ID: domain.NewID("bil_"), AccountID: acct.ID, Method: domain.MethodCardCredit, Status: domain.BillingPending, Amount: 10_000,
		FeeAmount: fee, NotificationFee: notif, NetAmount: net, InstallmentCount: 1, DueDate: domain.Today(time.Now()).AddDate(0, 0, 3),
		Customer: domain.SomeJSON(domain.BillingCustomer{Name: "Ana", TaxID: "52998224725"}), PageToken: domain.NewID("pg_"),
		CreatedAt: domain.NewTime(time.Now()),
	}
	if err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
		_, err := activities.InsertBilling(t.Context(), tx, b)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	s := &service.Billings{DB: sharedDB}
	if _, err := s.Cancel(t.Context(), acct, b.ID); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("Cancel of a card billing = %v, want invalid", err)
	}
	got, err := db.BillingByID(t.Context(), sharedDB, b.ID)
	if err != nil || got.Status != domain.BillingPending {
		t.Fatalf("card billing after the refused cancel: %s, %v", got.Status, err)
	}
}
