package activities_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	storedom "github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
	"github.com/jangada/jangada/service"
)

// pixAuto is a merchant's authorization (PENDING, first payment R$ 10.00
// with the default R$ 0.50 fee, fixed R$ 49.90 weekly from today) and the
// activities over the real use case, with a mocked processor.
func (f *fixture) pixAuto(proc *processormock.MockPixAutomatic) (*activities.PixAutomatic, pixauto.Authorization, storedom.Customer) {
	f.t.Helper()
	c, err := db.InsertCustomer(f.ctx, f.db, storedom.Customer{ID: domain.NewID("cus_"), AccountID: f.merchant.ID, Name: "Maria",
		Email: ptr("maria@example.com"), Document: "52998224725"})
	if err != nil {
		f.t.Fatal(err)
	}
	fixed := money.Cents(4990)
	a := pixauto.Authorization{ID: domain.NewID(""), AccountID: f.merchant.ID, APIKeyID: "key_test", CustomerID: c.ID,
		Description: "Academia", Frequency: pixauto.Weekly, FixedAmount: &fixed, StartDate: pixauto.Today(time.Now()),
		FirstPaymentAmount: 1000, FirstPaymentFee: 50, Status: pixauto.StatusPending, RecurrenceID: "RR1",
		ConsentExpiresAt: time.Now().Add(time.Hour), CreatedAt: time.Now().UTC()}
	if _, err := db.InsertAuthorization(f.ctx, f.db, a); err != nil {
		f.t.Fatal(err)
	}
	return &activities.PixAutomatic{Base: f.base(), Processor: proc, Maker: &service.PixAutomatic{DB: f.db}}, a, c
}

// The PIX automatic steps on PostgreSQL, each run twice (a Temporal retry):
// the consent activates once and credits the first payment exactly once;
// a cycle's instruction is made once with the account's fee; the debit is
// sent to the processor once; the payment credits exactly once; cancels
// and the close follow their rules.
func TestPixAutomaticStepsPostOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockPixAutomatic(gomock.NewController(t))
	acts, a, cust := f.pixAuto(proc)
	ctx := f.ctx
	now := time.Now().UTC()

	notice := processor.AuthorizationNotice{AuthorizationID: a.ID, Outcome: processor.OutcomeApproved,
		Payer: &domain.Party{Name: "Maria"}, EndToEndID: "E9999990820261125ABCDEFGHIJK", At: now}
	var got pixauto.Authorization
	for range 2 {
		var err error
		if got, err = acts.ActivateAuthorization(ctx, activities.ActivateInput{AuthorizationID: a.ID, Notice: notice}); err != nil {
			t.Fatal(err)
		}
	}
	if got.Status != pixauto.StatusActive || got.FirstPaymentID == "" || got.Payer == nil {
		t.Fatalf("activated %+v", got)
	}
	first := f.get(got.FirstPaymentID, domain.TypePixAutomatic)
	f.wantEqual("first payment status", first.Status, pixauto.InstructionPaid)
	f.wantEqual("first payment moves", f.moves("pix-automatic:"+first.ID+":settle"),
		map[string]money.Cents{domain.LedgerPixClearing: -1000, domain.AvailableLedger(f.merchant.ID): 950, domain.LedgerFees: 50})

	// A cycle's instruction, made twice: one row, priced with the account's fee.
	due := pixauto.Today(now).AddDays(7) // cycle 1 of a weekly recurrence started today
	order := pixauto.Order{Cycle: 1, Amount: 4990, DueDate: due}
	var in domain.Transaction
	for range 2 {
		var err error
		if in, err = acts.MakeInstruction(ctx, activities.MakeInstructionInput{AuthorizationID: a.ID, Order: order}); err != nil {
			t.Fatal(err)
		}
	}
	f.wantEqual("instruction id", in.ID, activities.InstructionID(a.ID, 1))
	f.wantEqual("instruction", []any{in.Status, in.Amount, in.FeeAmount, in.NetAmount}, []any{pixauto.InstructionScheduled, money.Cents(4990), money.Cents(50), money.Cents(4940)})
	if _, err := acts.MakeInstruction(ctx, activities.MakeInstructionInput{AuthorizationID: a.ID,
		Order: pixauto.Order{Cycle: 1, Amount: 4990, DueDate: due.AddDays(1)}}); err == nil || !strings.Contains(err.Error(), "dueDate") {
		t.Errorf("another instruction in cycle 1: err %v, want one naming dueDate", err)
	}
	if _, err := acts.MakeInstruction(ctx, activities.MakeInstructionInput{AuthorizationID: a.ID,
		Order: pixauto.Order{Cycle: 0, Amount: 4990, DueDate: pixauto.Today(now).AddDays(1)}}); err == nil || !strings.Contains(err.Error(), "dueDate") {
		t.Errorf("an instruction due tomorrow: err %v, want one naming dueDate", err)
	}

	// The debit goes to the payer's institution once.
	proc.EXPECT().DebitInstruction(gomock.Any(), processor.DebitRequest{ID: in.ID, AuthorizationID: a.ID, RecurrenceID: "RR1",
		Amount: 4990, DueDate: string(due), Attempt: 1}).Return(processor.Submission{ReferenceID: "sbx_debit"}, nil).Times(1)
	for range 2 {
		if _, err := acts.ChargeInstruction(ctx, activities.ChargeInput{InstructionID: in.ID, Attempt: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := acts.CancelInstruction(ctx, activities.CancelInstructionInput{AuthorizationID: a.ID, InstructionID: in.ID}); err == nil {
		t.Error("an instruction sent for debit was canceled")
	}
	before := f.balance(f.merchant.ID)
	paid := processor.InstructionNotice{InstructionID: in.ID, Outcome: processor.OutcomePaid, EndToEndID: "E2", At: now}
	for range 2 {
		if _, err := acts.SettleInstruction(ctx, activities.SettleInstructionInput{InstructionID: in.ID, Notice: paid}); err != nil {
			t.Fatal(err)
		}
	}
	f.wantEqual("paid moves", f.moves("pix-automatic:"+in.ID+":settle"),
		map[string]money.Cents{domain.LedgerPixClearing: -4990, domain.AvailableLedger(f.merchant.ID): 4940, domain.LedgerFees: 50})
	f.wantEqual("available after", f.balance(f.merchant.ID).Available, before.Available+4940)
	f.wantEqual("paid status", f.get(in.ID, domain.TypePixAutomatic).Status, pixauto.InstructionPaid)
	c, err := db.GetCustomer(ctx, f.db, f.merchant.ID, cust.ID)
	if err != nil {
		t.Fatal(err)
	}
	f.wantEqual("customer payments", []any{c.Transactions, c.Volume}, []any{int64(2), money.Cents(5990)})

	// Cycle 2 is made, canceled (twice: the same answer), then cycle 3 is
	// made and the close cancels it with the authorization.
	two, err := acts.MakeInstruction(ctx, activities.MakeInstructionInput{AuthorizationID: a.ID,
		Order: pixauto.Order{Cycle: 1, Amount: 4990, DueDate: due}})
	if err != nil || two.ID != in.ID || two.Status != pixauto.InstructionPaid {
		t.Fatalf("cycle 1 again: %+v %v", two, err)
	}
	three, err := acts.MakeInstruction(ctx, activities.MakeInstructionInput{AuthorizationID: a.ID,
		Order: pixauto.Order{Cycle: 0, Amount: 4990, DueDate: pixauto.Today(now).AddDays(6)}})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if c, err := acts.CancelInstruction(ctx, activities.CancelInstructionInput{AuthorizationID: a.ID, InstructionID: three.ID}); err != nil || c.Status != pixauto.InstructionCanceled {
			t.Fatalf("cancel: %+v %v", c, err)
		}
	}
	if _, err := acts.CancelInstruction(ctx, activities.CancelInstructionInput{AuthorizationID: a.ID, InstructionID: in.ID}); err == nil {
		t.Error("a PAID instruction was canceled")
	}
	if _, err := acts.CancelInstruction(ctx, activities.CancelInstructionInput{AuthorizationID: "another", InstructionID: three.ID}); err == nil ||
		!strings.Contains(err.Error(), "not found") {
		t.Errorf("another authorization's workflow canceled an instruction: %v", err)
	}
	closed, err := acts.CloseAuthorization(ctx, activities.CloseInput{AuthorizationID: a.ID, Status: pixauto.StatusCanceled, Reason: "canceled"})
	if err != nil || closed.Status != pixauto.StatusCanceled || closed.ClosedAt == nil {
		t.Fatalf("close: %+v %v", closed, err)
	}
	if _, err := acts.MakeInstruction(ctx, activities.MakeInstructionInput{AuthorizationID: a.ID,
		Order: pixauto.Order{Cycle: 2, Amount: 4990, DueDate: pixauto.Today(now).AddDays(10)}}); err == nil ||
		!strings.Contains(err.Error(), "authorizationId") {
		t.Errorf("an instruction of a canceled authorization: err %v, want one naming authorizationId", err)
	}
}

// Closing an authorization cancels its instructions not yet sent, and
// leaves one sent for debit to settle; a failed debit credits nothing.
func TestPixAutomaticCloseKeepsSentDebits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockPixAutomatic(gomock.NewController(t))
	acts, a, _ := f.pixAuto(proc)
	ctx := f.ctx
	if _, err := acts.ActivateAuthorization(ctx, activities.ActivateInput{AuthorizationID: a.ID,
		Notice: processor.AuthorizationNotice{Outcome: processor.OutcomeApproved, At: time.Now(), EndToEndID: "E1"}}); err != nil {
		t.Fatal(err)
	}
	today := pixauto.Today(time.Now())
	sent, err := acts.MakeInstruction(ctx, activities.MakeInstructionInput{AuthorizationID: a.ID, Order: pixauto.Order{Cycle: 0, Amount: 4990, DueDate: today.AddDays(3)}})
	if err != nil {
		t.Fatal(err)
	}
	waiting, err := acts.MakeInstruction(ctx, activities.MakeInstructionInput{AuthorizationID: a.ID, Order: pixauto.Order{Cycle: 1, Amount: 4990, DueDate: today.AddDays(8)}})
	if err != nil {
		t.Fatal(err)
	}
	proc.EXPECT().DebitInstruction(gomock.Any(), gomock.Any()).Return(processor.Submission{ReferenceID: "r"}, nil)
	if _, err := acts.ChargeInstruction(ctx, activities.ChargeInput{InstructionID: sent.ID, Attempt: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := acts.CloseAuthorization(ctx, activities.CloseInput{AuthorizationID: a.ID, Status: pixauto.StatusCanceled, Reason: "x"}); err != nil {
		t.Fatal(err)
	}
	f.wantEqual("sent", f.get(sent.ID, domain.TypePixAutomatic).Status, pixauto.InstructionScheduled)
	f.wantEqual("waiting", f.get(waiting.ID, domain.TypePixAutomatic).Status, pixauto.InstructionCanceled)
	failed, err := acts.SettleInstruction(ctx, activities.SettleInstructionInput{InstructionID: sent.ID,
		Notice: processor.InstructionNotice{Outcome: processor.OutcomeFailed, Reason: "no funds", At: time.Now()}})
	if err != nil || failed.Status != pixauto.InstructionFailed || failed.Details.V.PixAutomatic.FailureReason != "no funds" {
		t.Fatalf("failed: %+v %v", failed, err)
	}
	f.wantEqual("postings of the failed debit", f.postings(sent.ID), []string{})
}

// TestPixAutomaticCancelDuringDebitIsRefused: a merchant's cancel that
// arrives while the debit is being sent (the workflow's update runs beside
// its charge activity) is refused once the debit is on its way, so the
// payer's payment is credited when it settles (a cancel that went through
// would leave the payer debited and the merchant never credited).
func TestPixAutomaticCancelDuringDebitIsRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proc := processormock.NewMockPixAutomatic(gomock.NewController(t))
	acts, a, _ := f.pixAuto(proc)
	ctx := f.ctx
	if _, err := acts.ActivateAuthorization(ctx, activities.ActivateInput{AuthorizationID: a.ID,
		Notice: processor.AuthorizationNotice{Outcome: processor.OutcomeApproved, At: time.Now(), EndToEndID: "E1"}}); err != nil {
		t.Fatal(err)
	}
	in, err := acts.MakeInstruction(ctx, activities.MakeInstructionInput{AuthorizationID: a.ID,
		Order: pixauto.Order{Cycle: 0, Amount: 4990, DueDate: pixauto.Today(time.Now()).AddDays(3)}})
	if err != nil {
		t.Fatal(err)
	}
	var cancelErr error
	proc.EXPECT().DebitInstruction(gomock.Any(), gomock.Any()).DoAndReturn(func(context.Context, processor.DebitRequest) (processor.Submission, error) {
		_, cancelErr = acts.CancelInstruction(ctx, activities.CancelInstructionInput{AuthorizationID: a.ID, InstructionID: in.ID})
		return processor.Submission{ReferenceID: "sbx_debit"}, nil
	}).Times(1)
	if _, err := acts.ChargeInstruction(ctx, activities.ChargeInput{InstructionID: in.ID, Attempt: 1}); err != nil {
		t.Fatal(err)
	}
	if cancelErr == nil {
		t.Fatal("an instruction being sent for debit was canceled")
	}
	if _, err := acts.SettleInstruction(ctx, activities.SettleInstructionInput{InstructionID: in.ID,
		Notice: processor.InstructionNotice{InstructionID: in.ID, Outcome: processor.OutcomePaid, EndToEndID: "E2", At: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	f.wantEqual("paid moves", f.moves("pix-automatic:"+in.ID+":settle"),
		map[string]money.Cents{domain.LedgerPixClearing: -4990, domain.AvailableLedger(f.merchant.ID): 4940, domain.LedgerFees: 50})
}
