package activities_test

import (
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/bureau"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
)

func (f *fixture) newDunning(payment string, value money.Cents) bureau.Dunning {
	return bureau.Dunning{ID: domain.NewID("dun_"), AccountID: f.merchant.ID, Status: bureau.DunningPending, Type: bureau.DunningTypeCreditBureau,
		Payment: payment, Value: value, Fee: bureau.DunningFee, Debtor: domain.SomeJSON(bureau.Debtor{Name: "Maria", CpfCnpj: "52998224725"}),
		DocumentType: "application/pdf", CreatedAt: domain.NewTime(time.Now())}
}

// The fee is debited once with the dunning, from withdrawable money; a
// second insert of the same dunning posts nothing; a second standing
// dunning of the billing is refused; a fee the balance cannot pay rolls
// the dunning back.
func TestInsertDunningDebitsTheFeeOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 2000)
	d := f.newDunning("bil_a", 10000)
	for i, want := range []bool{true, false} {
		var fresh bool
		f.inTx(func(tx *sqlx.Tx) error {
			var err error
			fresh, err = activities.InsertDunning(f.ctx, tx, d, []byte("%PDF-1.4"))
			return err
		})
		if fresh != want {
			t.Fatalf("insert %d: fresh %v", i, fresh)
		}
	}
	f.wantEqual("available after the fee", f.balance(f.merchant.ID).Available, money.Cents(2000-1290))
	f.wantEqual("fee moves", f.moves("dunning:"+d.ID+":fee"), map[string]money.Cents{
		domain.AvailableLedger(f.merchant.ID): -1290, domain.LedgerFees: 1290})
	again := f.newDunning("bil_a", 10000)
	tx := f.db.MustBeginTx(f.ctx, nil)
	_, err := activities.InsertDunning(f.ctx, tx, again, []byte("%PDF-1.4"))
	tx.Rollback()
	if !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("second standing dunning: %v", err)
	}
	poor := f.newDunning("bil_b", 10000) // 7.10 left: the fee is 12.90
	tx = f.db.MustBeginTx(f.ctx, nil)
	_, err = activities.InsertDunning(f.ctx, tx, poor, []byte("%PDF-1.4"))
	tx.Rollback()
	if !errors.Is(err, domain.ErrInsufficientBalance) {
		t.Fatalf("fee beyond the balance: %v", err)
	}
}

// Submitting twice asks the bureau once; a denial returns the fee once;
// a late answer after the conclusion changes nothing.
func TestDunningSubmitAndDenyAreIdempotent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 5000)
	d := f.newDunning("bil_c", 10077)
	f.inTx(func(tx *sqlx.Tx) error {
		_, err := activities.InsertDunning(f.ctx, tx, d, []byte("%PDF-1.4 doc"))
		return err
	})
	proc := processormock.NewMockBureau(gomock.NewController(t))
	proc.EXPECT().RequestDunning(gomock.Any(), gomock.Any()).DoAndReturn(func(_ any, r processor.DunningRequest) (processor.Submission, error) {
		if r.ID != d.ID || string(r.Document) != "%PDF-1.4 doc" || r.Value != 10077 || r.Debtor.CpfCnpj != "52998224725" {
			t.Errorf("request %+v", r)
		}
		return processor.Submission{ReferenceID: "ref_1"}, nil
	}).Times(1)
	a := &activities.Bureau{Base: f.base(), Processor: proc}
	for range 2 {
		got, err := a.SubmitDunning(f.ctx, d.ID)
		if err != nil || got.Status != bureau.DunningAwaitingApproval || *got.ReferenceID != "ref_1" {
			t.Fatalf("submit: %+v, %v", got, err)
		}
	}
	n := processor.DunningNotice{DunningID: d.ID, Outcome: processor.OutcomeDenied, Reason: "no proof"}
	for range 2 {
		got, err := a.ConcludeDunning(f.ctx, n)
		if err != nil || got.Status != bureau.DunningDenied || *got.Reason != "no proof" {
			t.Fatalf("deny: %+v, %v", got, err)
		}
	}
	got, err := a.ConcludeDunning(f.ctx, processor.DunningNotice{DunningID: d.ID, Outcome: processor.OutcomeProcessed})
	if err != nil || got.Status != bureau.DunningDenied {
		t.Fatalf("late answer: %+v, %v", got, err)
	}
	f.wantEqual("available after fee and its return", f.balance(f.merchant.ID).Available, money.Cents(5000))
	f.wantEqual("fee returned", f.moves("dunning:"+d.ID+":fee-returned"), map[string]money.Cents{
		domain.AvailableLedger(f.merchant.ID): 1290, domain.LedgerFees: -1290})
}

// A processed dunning keeps its fee.
func TestDunningProcessedKeepsTheFee(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.fund(f.merchant.ID, 5000)
	d := f.newDunning("bil_d", 10000)
	f.inTx(func(tx *sqlx.Tx) error { _, err := activities.InsertDunning(f.ctx, tx, d, []byte("%PDF")); return err })
	a := &activities.Bureau{Base: f.base()}
	got, err := a.ConcludeDunning(f.ctx, processor.DunningNotice{DunningID: d.ID, Outcome: processor.OutcomeProcessed})
	if err != nil || got.Status != bureau.DunningProcessed {
		t.Fatalf("%+v, %v", got, err)
	}
	f.wantEqual("available", f.balance(f.merchant.ID).Available, money.Cents(5000-1290))
}
