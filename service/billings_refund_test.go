package service_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.temporal.io/sdk/client"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/workflows"
)

// paidBoleto stores a boleto billing of amount for acct and pays it as the
// processor's notice would.
func paidBoleto(t *testing.T, acct domain.Account, amount money.Cents) billing.Billing {
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
func pendingBoleto(t *testing.T, acct domain.Account, amount money.Cents) billing.Billing {
	t.Helper()
	fee, notif, net, err := acct.Fees.BillingPrice(domain.MethodBoleto, amount)
	if err != nil {
		t.Fatal(err)
	}
	b := billing.Billing{
		ID: domain.NewID("bil_"), AccountID: acct.ID, Method: domain.MethodBoleto, Status: billing.BillingPending, Amount: amount,
		FeeAmount: fee, NotificationFee: notif, NetAmount: net, InstallmentCount: 1, DueDate: domain.Today(time.Now()).AddDate(0, 0, 3),
		Customer: domain.SomeJSON(billing.BillingCustomer{Name: "Ana", TaxID: "52998224725"}), PageToken: domain.NewID("pg_"),
		CreatedAt: domain.NewTime(time.Now()),
	}
	if err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
		_, err := activities.InsertBilling(t.Context(), tx, b, nil)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return b
}

// fakeRefundRun is the run of a billing refund's workflow as the use case
// waits for it: Get runs the workflow's one activity in place (against the
// mocked processor), as the worker would.
type fakeRefundRun struct {
	client.WorkflowRun
	a   *activities.Billings
	ref activities.BillingRefundRef
}

func (r fakeRefundRun) Get(ctx context.Context, valuePtr any) error {
	s, err := r.a.SubmitBillingRefund(ctx, r.ref)
	if p, ok := valuePtr.(*string); ok {
		*p = s
	}
	return err
}

// refundTemporal is a Temporal whose billing refund workflows run their
// activity when the use case waits for them; it counts the starts.
func refundTemporal(t *testing.T, proc *processormock.MockBillings, starts *atomic.Int32) *servicemock.MockTemporal {
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	var refs sync.Map // workflow id → activities.BillingRefundRef
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_ context.Context, o client.StartWorkflowOptions, _ any, args ...any) (client.WorkflowRun, error) {
			in := args[0].(workflows.BillingRefundInput)
			refs.Store(o.ID, activities.BillingRefundRef{BillingID: in.BillingID, RefundID: in.RefundID})
			starts.Add(1)
			return nil, nil
		}).AnyTimes()
	temporal.EXPECT().GetWorkflow(gomock.Any(), gomock.Any(), "").DoAndReturn(func(_ context.Context, id, _ string) client.WorkflowRun {
		ref, _ := refs.Load(id)
		return fakeRefundRun{a: &activities.Billings{Base: activities.Base{DB: sharedDB}, Processor: proc}, ref: ref.(activities.BillingRefundRef)}
	}).AnyTimes()
	return temporal
}

// TestBillingRefundRefusedForBalanceStartsNothing: a refund the merchant's
// balance cannot pay is refused before anything is booked or started, so
// the processor is never asked to return money the merchant is told was
// not refunded.
func TestBillingRefundRefusedForBalanceStartsNothing(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Refund Balance Ltda")
	b := paidBoleto(t, acct, 10_000)
	// The merchant's money is taken by an operator (its available is 0).
	if _, err := service.Adjust(t.Context(), sharedDB, acct.ID, -b.NetAmount, "chargeback", "take-"+b.ID); err != nil {
		t.Fatal(err)
	}
	proc := processormock.NewMockBillings(gomock.NewController(t))
	var starts atomic.Int32
	s := &service.Billings{DB: sharedDB, Processor: proc, Temporal: refundTemporal(t, proc, &starts)}
	if _, err := s.Refund(t.Context(), acct, billing.NewBillingRefund{ID: b.ID, Amount: 5_000}); !errors.Is(err, domain.ErrInsufficientBalance) {
		t.Fatalf("Refund = %v, want insufficient balance", err)
	}
	if n := starts.Load(); n != 0 {
		t.Fatalf("%d workflows started for a refused refund", n)
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
	proc.EXPECT().RefundBilling(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, r processor.BillingRefundRequest) (processor.Submission, error) {
		mu.Lock()
		asked += r.Amount
		mu.Unlock()
		return processor.Submission{ReferenceID: "ref_" + r.RefundID}, nil
	}).AnyTimes()
	var starts atomic.Int32
	s := &service.Billings{DB: sharedDB, Processor: proc, Temporal: refundTemporal(t, proc, &starts)}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, amount := range []money.Cents{6_000, 5_000} {
		wg.Go(func() {
			_, errs[i] = s.Refund(t.Context(), acct, billing.NewBillingRefund{ID: b.ID, Amount: amount, IdempotencyKey: "race-" + b.ID + "-" + amount.String()})
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

// TestBillingRefundRefusedByTheProcessorAnswersItsRefusal: the processor
// refuses; the answer is a 400 (never a billing claiming the refund), the
// billing is as it was and the merchant's balance too. The same request
// again (its Idempotency-Key) answers the same refusal without asking the
// processor or starting anything again.
func TestBillingRefundRefusedByTheProcessorAnswersItsRefusal(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Refund Refused Ltda")
	b := paidBoleto(t, acct, 10_000)
	before, err := db.GetBalance(t.Context(), sharedDB, acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	proc := processormock.NewMockBillings(gomock.NewController(t))
	proc.EXPECT().RefundBilling(gomock.Any(), gomock.Any()).Return(processor.Submission{}, processor.ErrRefundRefused).Times(1)
	var starts atomic.Int32
	s := &service.Billings{DB: sharedDB, Processor: proc, Temporal: refundTemporal(t, proc, &starts)}
	for range 2 {
		_, err := s.Refund(t.Context(), acct, billing.NewBillingRefund{ID: b.ID, Amount: 4_000, IdempotencyKey: "refused-" + b.ID})
		if !errors.Is(err, domain.ErrInvalid) {
			t.Fatalf("Refund = %v, want the refusal (invalid)", err)
		}
	}
	got, err := db.BillingByID(t.Context(), sharedDB, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != billing.BillingReceived || got.RefundedAmount != 0 || len(got.Details.V.Refunds) != 1 || got.Details.V.Refunds[0].Status != domain.StatusFailed {
		t.Fatalf("billing after the refusal: %s, refunded %s, refunds %+v", got.Status, got.RefundedAmount, got.Details.V.Refunds)
	}
	after, err := db.GetBalance(t.Context(), sharedDB, acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Available != before.Available || after.Pending != before.Pending || after.Withdrawable != before.Withdrawable || after.Locked24h != before.Locked24h {
		t.Fatalf("balance %+v after the refusal, want %+v", after, before)
	}
	if n := starts.Load(); n != 1 {
		t.Fatalf("%d workflow starts, want 1", n)
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
	b := billing.Billing{
		ID: domain.NewID("bil_"), AccountID: acct.ID, Method: domain.MethodCardCredit, Status: billing.BillingPending, Amount: 10_000,
		FeeAmount: fee, NotificationFee: notif, NetAmount: net, InstallmentCount: 1, DueDate: domain.Today(time.Now()).AddDate(0, 0, 3),
		Customer: domain.SomeJSON(billing.BillingCustomer{Name: "Ana", TaxID: "52998224725"}), PageToken: domain.NewID("pg_"),
		CreatedAt: domain.NewTime(time.Now()),
	}
	if err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
		_, err := activities.InsertBilling(t.Context(), tx, b, nil)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	s := &service.Billings{DB: sharedDB}
	if _, err := s.Cancel(t.Context(), acct, b.ID); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("Cancel of a card billing = %v, want invalid", err)
	}
	got, err := db.BillingByID(t.Context(), sharedDB, b.ID)
	if err != nil || got.Status != billing.BillingPending {
		t.Fatalf("card billing after the refused cancel: %s, %v", got.Status, err)
	}
}
