package activities_test

import (
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	meddom "github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
)

// openMED opens a dispute of amount against deposit d as the Inbox does
// (the deposit locked, the first step in one transaction), twice: the
// second call is the workflow's guard or a retried notice.
func (f *fixture) openMED(d domain.Transaction, amount money.Cents, features domain.Features) domain.Transaction {
	f.t.Helper()
	m := activities.NewMED(d, processor.MEDOpening{InfractionID: "inf_" + d.ID, EndToEndID: *d.EndToEndID, Amount: amount,
		Reason: "golpe do falso vendedor", At: time.Now().UTC()}, features)
	for range 2 {
		f.inTx(func(tx *sqlx.Tx) error {
			locked, err := db.LockTransaction(f.ctx, tx, d.ID)
			if err != nil {
				return err
			}
			_, err = activities.OpenMED(f.ctx, tx, locked, m, publicURL)
			return err
		})
	}
	return f.get(m.ID, domain.TypeMED)
}

func (f *fixture) lockedBalance(wallet string) money.Cents {
	f.t.Helper()
	var b money.Cents
	if err := f.db.GetContext(f.ctx, &b, `SELECT coalesce((SELECT balance FROM ledger_accounts WHERE id = $1), 0)`,
		subaccount.LockedLedger(wallet)); err != nil {
		f.t.Fatal(err)
	}
	return b
}

// TestMEDHoldAndReleaseOnTheMainAccount: opening blocks the disputed value
// (available → locked) once, taking the deposit's own locked money first
// (its lock date), so the wallet's free money stays withdrawable;
// REJECTED releases it exactly once and the deposit's money is locked again
// until its 24 h end.
func TestMEDHoldAndReleaseOnTheMainAccount(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.settledCharge(10_000) // net 9 950, locked 24 h
	f.fund(f.merchant.ID, 1_000) // free money
	m := f.openMED(d, 10_000, domain.Features{})

	med := m.Details.V.Med
	f.wantEqual("status", m.Status, meddom.MedOpen)
	f.wantEqual("blocked, shortfall", [2]money.Cents{med.Blocked, med.Shortfall}, [2]money.Cents{10_000, 0})
	f.wantEqual("hold", f.moves("med-hold:"+m.ID), map[string]money.Cents{
		domain.AvailableLedger(f.merchant.ID): -10_000, subaccount.LockedLedger(f.merchant.ID): 10_000})
	b := f.balance(f.merchant.ID)
	f.wantEqual("available, withdrawable", [2]money.Cents{b.Available, b.Withdrawable}, [2]money.Cents{950, 950})
	f.wantEqual("locked", f.lockedBalance(f.merchant.ID), money.Cents(10_000))
	f.wantEqual("events", f.events(m.ID), []string{domain.EventMedCreated})
	f.wantEqual("deadline", med.DefenceDeadline.Sub(m.CreatedAt.Time).Round(time.Second), meddom.MedDefenceWindow)
	f.wantEqual("expiry", med.ExpiresAt.Sub(d.CompletedAt.Time).Round(time.Second), meddom.MedReturnLimit)

	a := &activities.MEDs{Base: f.base()}
	for range 2 { // the second call is a retried activity
		if err := a.ResolveMED(f.ctx, activities.ResolveMEDInput{ID: m.ID, Status: meddom.MedRejected}); err != nil {
			t.Fatal(err)
		}
	}
	b = f.balance(f.merchant.ID)
	f.wantEqual("available, withdrawable after release", [2]money.Cents{b.Available, b.Withdrawable}, [2]money.Cents{10_950, 1_000})
	f.wantEqual("locked after release", f.lockedBalance(f.merchant.ID), money.Cents(0))
	f.wantEqual("postings", f.postings(m.ID), []string{"med-hold:" + m.ID, "med-release:" + m.ID})
	f.wantEqual("events", f.events(m.ID), []string{domain.EventMedCreated, domain.EventMedUpdated})
	f.wantEqual("status", f.get(m.ID, domain.TypeMED).Status, meddom.MedRejected)
}

// TestMEDOnSpentMoneyRecordsTheShortfall: a dispute on money already spent
// blocks what is there and records the rest as its shortfall (never a
// negative balance); ACCEPTED returns the block to the payer, topped up
// with what the wallet received since, and never back to available.
func TestMEDOnSpentMoneyRecordsTheShortfall(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.settledCharge(10_000)
	f.fund(f.merchant.ID, -9_000) // spent: 950 left
	m := f.openMED(d, 10_000, domain.Features{})
	med := m.Details.V.Med
	f.wantEqual("blocked, shortfall", [2]money.Cents{med.Blocked, med.Shortfall}, [2]money.Cents{950, 9_050})
	f.wantEqual("available", f.balance(f.merchant.ID).Available, money.Cents(0))

	f.fund(f.merchant.ID, 3_000) // money arriving later
	a := &activities.MEDs{Base: f.base()}
	for range 2 {
		if err := a.ResolveMED(f.ctx, activities.ResolveMEDInput{ID: m.ID, Status: meddom.MedAccepted}); err != nil {
			t.Fatal(err)
		}
	}
	got := f.get(m.ID, domain.TypeMED)
	med = got.Details.V.Med
	f.wantEqual("returned, shortfall", [2]money.Cents{med.Returned, med.Shortfall}, [2]money.Cents{3_950, 6_050})
	f.wantEqual("return", f.moves("med-return:"+m.ID), map[string]money.Cents{
		subaccount.LockedLedger(f.merchant.ID): -950, domain.AvailableLedger(f.merchant.ID): -3_000, domain.LedgerPixClearing: 3_950})
	f.wantEqual("available", f.balance(f.merchant.ID).Available, money.Cents(0))
	f.wantEqual("locked", f.lockedBalance(f.merchant.ID), money.Cents(0))
	f.wantEqual("status", got.Status, meddom.MedAccepted)
	if got.CompletedAt == nil || med.ResolvedAt == nil {
		t.Errorf("resolvedAt %v, completedAt %v", med.ResolvedAt, got.CompletedAt)
	}
}

// TestMEDOnASubaccountDeposit: a deposit credited to a sub-account blocks
// the sub-account's money (availablePadrao → lockedPadrao), and CANCELED
// gives it back; the main account is untouched.
func TestMEDOnASubaccountDeposit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sub := f.newSub("med")
	c := f.subCharge(5_000, sub)
	if _, err := activities.InsertCharge(f.ctx, f.db, c, publicURL, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := (&activities.Charges{Base: f.base()}).SettleCharge(f.ctx, activities.SettleChargeInput{ChargeID: c.ID, Notice: paidNotice()}); err != nil {
		t.Fatal(err)
	}
	d := f.get(c.ID, domain.TypePixIn)
	m := f.openMED(d, 5_000, domain.Features{})
	sb, err := db.SubaccountBalance(f.ctx, f.db, sub)
	if err != nil {
		t.Fatal(err)
	}
	f.wantEqual("sub available, locked", [2]money.Cents{sb.AvailablePadrao, sb.LockedPadrao}, [2]money.Cents{0, 4_950})
	f.wantEqual("shortfall", m.Details.V.Med.Shortfall, money.Cents(50))
	f.wantEqual("main available", f.balance(f.merchant.ID).Available, money.Cents(0))
	if err := (&activities.MEDs{Base: f.base()}).ResolveMED(f.ctx, activities.ResolveMEDInput{ID: m.ID, Status: meddom.MedCanceled}); err != nil {
		t.Fatal(err)
	}
	sb, _ = db.SubaccountBalance(f.ctx, f.db, sub)
	f.wantEqual("sub available, locked after", [2]money.Cents{sb.AvailablePadrao, sb.LockedPadrao}, [2]money.Cents{4_950, 0})
}

// TestMEDEvidenceRules: evidence only while OPEN and before the defence
// deadline; files stored by content hash (the same file once); the
// defence forwarded to the processor once; the deadline closes the defence.
func TestMEDEvidenceRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := f.openMED(f.settledCharge(2_000), 2_000, domain.Features{AutoContest: true}) // R$ 20: no automatic contest
	if m.Details.V.Med.AutoContest || m.Amount != 2_000 {
		t.Fatalf("amount %v autoContest %v", m.Amount, m.Details.V.Med.AutoContest)
	}
	base := f.base()
	file := meddom.EvidenceContent{EvidenceFile: domain.EvidenceFile{Name: "nota.pdf", ContentType: "application/pdf", Size: 4,
		SHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}, Bytes: []byte("%PDF")}
	late := activities.EvidenceInput{ID: m.ID, Description: "tarde demais", At: m.Details.V.Med.DefenceDeadline.Time}
	if _, err := activities.RecordEvidence(f.ctx, &base, late); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("evidence at the deadline: %v, want a 400", err)
	}
	in := activities.EvidenceInput{ID: m.ID, Description: "Venda regular", Files: []meddom.EvidenceContent{file, file}, At: time.Now()}
	got, err := activities.RecordEvidence(f.ctx, &base, in)
	if err != nil {
		t.Fatal(err)
	}
	f.wantEqual("status", got.Status, meddom.MedUnderReview)
	var n int
	if err := f.db.GetContext(f.ctx, &n, `SELECT count(*) FROM med_evidence_files WHERE med_id = $1`, m.ID); err != nil || n != 1 {
		t.Fatalf("stored files %d (%v), want 1", n, err)
	}
	if _, err := activities.RecordEvidence(f.ctx, &base, in); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("evidence on an UNDER_REVIEW dispute: %v, want a 400", err)
	}

	proc := processormock.NewMockMED(gomock.NewController(t))
	proc.EXPECT().ContestMED(gomock.Any(), gomock.Any()).DoAndReturn(func(_ any, d processor.MEDDefence) (processor.Submission, error) {
		if d.MEDID != m.ID || d.InfractionID != *m.ReferenceID || len(d.Files) != 1 || string(d.Files[0].Content) != "%PDF" {
			t.Errorf("defence %+v", d)
		}
		return processor.Submission{ReferenceID: "def"}, nil
	}).Times(1)
	a := &activities.MEDs{Base: base, Processor: proc}
	for range 2 { // forwarded once
		if err := a.SendMEDDefence(f.ctx, m.ID); err != nil {
			t.Fatal(err)
		}
	}
	f.wantEqual("events", f.events(m.ID), []string{domain.EventMedCreated, domain.EventMedEvidenceSent})

	// Another dispute reaches its deadline without a defence.
	m2 := f.openMED(f.settledCharge(3_000), 3_000, domain.Features{})
	for range 2 {
		if err := a.CloseMEDDefence(f.ctx, m2.ID); err != nil {
			t.Fatal(err)
		}
	}
	f.wantEqual("status at the deadline", f.get(m2.ID, domain.TypeMED).Status, meddom.MedUnderReview)
	f.wantEqual("events at the deadline", f.events(m2.ID), []string{domain.EventMedCreated, domain.EventMedUpdated})
	if err := a.SendMEDDefence(f.ctx, m2.ID); err != nil { // nothing to send: no call
		t.Fatal(err)
	}
}

// TestMEDAutoContest: above R$ 50 with the account's autoContest on, the
// service defends on its own (UNDER_REVIEW, med.evidence_sent, automatic).
func TestMEDAutoContest(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := f.openMED(f.settledCharge(6_000), 6_000, domain.DefaultFeatures())
	if !m.Details.V.Med.AutoContest {
		t.Fatal("a R$ 60 dispute with autoContest on is not contested automatically")
	}
	a := &activities.MEDs{Base: f.base()}
	for range 2 {
		if err := a.AutoContestMED(f.ctx, m.ID); err != nil {
			t.Fatal(err)
		}
	}
	got := f.get(m.ID, domain.TypeMED)
	if got.Status != meddom.MedUnderReview || got.Details.V.Med.Evidence == nil || !got.Details.V.Med.Evidence.Automatic {
		t.Fatalf("after the automatic contest: %s %+v", got.Status, got.Details.V.Med.Evidence)
	}
	f.wantEqual("events", f.events(m.ID), []string{domain.EventMedCreated, domain.EventMedEvidenceSent})
}
