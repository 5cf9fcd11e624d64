package service_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	billingdom "github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
)

// medFixture is an account with money, a Temporal that accepts every
// start, and the Inbox and Refunds that share it.
type medFixture struct {
	acct    domain.Account
	inbox   *service.Inbox
	refunds *service.Refunds
}

func newMEDFixture(t *testing.T, name string) medFixture {
	t.Helper()
	acct := newAccount(t, name)
	fund(t, acct.ID, 10_000)
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil).AnyTimes()
	return medFixture{acct: acct, inbox: &service.Inbox{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue},
		refunds: &service.Refunds{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue}}
}

// deposit stores a paid PIX of R$ 10.00, owned by owner when set.
func (f medFixture) deposit(t *testing.T, owner *domain.ChargeOwner) domain.Transaction {
	t.Helper()
	e2e := "E" + strings.ReplaceAll(domain.NewID(""), "-", "")[:31]
	return storeTx(t, domain.Transaction{AccountID: f.acct.ID, Type: domain.TypePixIn, Status: domain.StatusCompleted,
		Amount: 1_000, FeeAmount: 50, NetAmount: 950, EndToEndID: &e2e, CompletedAt: domain.TimePtr(time.Now()),
		Details: domain.SomeJSON(domain.Details{Owner: owner})})
}

// openMED reports an infraction against d, as the processor would.
func (f medFixture) openMED(t *testing.T, d domain.Transaction) error {
	t.Helper()
	_, err := f.inbox.MEDOpened(t.Context(), processor.MEDOpening{InfractionID: "inf-" + d.ID, EndToEndID: *d.EndToEndID, Reason: "fraude"})
	return err
}

// setMEDStatus moves d's dispute to status, as its workflow would.
func setMEDStatus(t *testing.T, d domain.Transaction, status string) {
	t.Helper()
	if _, err := sharedDB.ExecContext(t.Context(), `UPDATE transactions SET status = $2 WHERE id = $1`, med.MedID(d.ID), status); err != nil {
		t.Fatal(err)
	}
}

// A refund of a deposit whose MED dispute is open would repay the payer
// twice (the dispute may return the money too): it is a 400 naming the
// dispute until it closes. A dispute rejected (or canceled, expired) lets
// the refund go ahead; one accepted has already returned the money, so
// the refund stays refused.
func TestRefundRefusedWhileItsDepositHasAMED(t *testing.T) {
	t.Parallel()
	f := newMEDFixture(t, "Loja Disputa")
	refund := func(d domain.Transaction) error {
		_, err := f.refunds.Create(t.Context(), f.acct, domain.NewRefund{DepositRef: d.ID, Amount: 1_000, Nature: "ORIGINAL"})
		return err
	}
	for _, status := range []string{med.MedOpen, med.MedUnderReview, med.MedAccepted} {
		d := f.deposit(t, nil)
		if err := f.openMED(t, d); err != nil {
			t.Fatal(err)
		}
		setMEDStatus(t, d, status)
		if err := refund(d); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "MED") {
			t.Fatalf("refund with its MED %s: %v, want a 400 naming the MED", status, err)
		}
		got, err := db.TransactionByID(t.Context(), sharedDB, d.ID, domain.TypePixIn)
		if err != nil || got.Details.V.Refund != nil {
			t.Fatalf("refused refund wrote %+v (%v)", got.Details.V.Refund, err)
		}
	}
	d := f.deposit(t, nil)
	if err := f.openMED(t, d); err != nil {
		t.Fatal(err)
	}
	setMEDStatus(t, d, med.MedRejected)
	if err := refund(d); err != nil {
		t.Fatalf("refund after its MED was rejected: %v", err)
	}
}

// A PIX billing's charge is refunded through its billing, which does not
// mark the charge's deposit: a MED against that deposit is refused once
// the billing has refunds (the payer has money back already), and opens
// while it has none.
func TestMEDRefusedForAPixBillingWithRefunds(t *testing.T) {
	t.Parallel()
	f := newMEDFixture(t, "Loja Cobranca")
	billing := func(refunded money.Cents) billingdom.Billing {
		b := billingdom.Billing{ID: domain.NewID("bil_"), AccountID: f.acct.ID, Method: domain.MethodPix, Status: billingdom.BillingReceived,
			Amount: 1_000, NetAmount: 950, FeeAmount: 50, InstallmentCount: 1, DueDate: domain.Today(time.Now()),
			Customer: domain.SomeJSON(billingdom.BillingCustomer{Name: "Ana", TaxID: "52998224725"}), PageToken: domain.NewID("pg_"),
			CreatedAt: domain.NewTime(time.Now())}
		if err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
			if _, err := activities.InsertBilling(t.Context(), tx, b, nil); err != nil {
				return err
			}
			if refunded == 0 {
				return nil
			}
			b.Status, b.RefundedAmount = billingdom.BillingPartiallyRefunded, refunded
			b.Details = domain.SomeJSON(billingdom.BillingDetails{Refunds: []billingdom.BillingRefund{
				{ID: domain.NewID(""), Amount: refunded, At: domain.NewTime(time.Now())}}})
			_, err := db.UpdateBilling(t.Context(), tx, b)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return b
	}
	refunded := f.deposit(t, &domain.ChargeOwner{Kind: activities.OwnerBilling, ID: billing(400).ID})
	if err := f.openMED(t, refunded); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "refund") {
		t.Fatalf("MED against a refunded PIX billing's payment: %v, want a 400 naming the refund", err)
	}
	if _, err := db.TransactionByID(t.Context(), sharedDB, med.MedID(refunded.ID), domain.TypeMED); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("the refused MED was stored (%v)", err)
	}
	paid := f.deposit(t, &domain.ChargeOwner{Kind: activities.OwnerBilling, ID: billing(0).ID})
	if err := f.openMED(t, paid); err != nil {
		t.Fatalf("MED against a PIX billing's payment with no refund: %v", err)
	}
}

// A PIX billing is refunded through /billings/refund, not through its
// charge's deposit: the same rule holds there, a 400 naming the MED while
// the deposit's dispute is open or accepted, the billing untouched.
func TestPixBillingRefundRefusedWhileItsChargeHasAMED(t *testing.T) {
	t.Parallel()
	f := newMEDFixture(t, "Loja Cobranca Disputa")
	billings := &service.Billings{DB: sharedDB}
	for _, status := range []string{med.MedOpen, med.MedAccepted} {
		b := billingdom.Billing{ID: domain.NewID("bil_"), AccountID: f.acct.ID, Method: domain.MethodPix, Status: billingdom.BillingReceived,
			Amount: 1_000, NetAmount: 950, FeeAmount: 50, InstallmentCount: 1, DueDate: domain.Today(time.Now()),
			Customer: domain.SomeJSON(billingdom.BillingCustomer{Name: "Ana", TaxID: "52998224725"}), PageToken: domain.NewID("pg_"),
			CreatedAt: domain.NewTime(time.Now())}
		d := f.deposit(t, &domain.ChargeOwner{Kind: activities.OwnerBilling, ID: b.ID})
		b.ChargeID = &d.ID
		if err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
			_, err := activities.InsertBilling(t.Context(), tx, b, nil)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if err := f.openMED(t, d); err != nil {
			t.Fatal(err)
		}
		setMEDStatus(t, d, status)
		_, err := billings.Refund(t.Context(), f.acct, billingdom.NewBillingRefund{ID: b.ID})
		if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "MED") {
			t.Fatalf("billing refund with its charge's MED %s: %v, want a 400 naming the MED", status, err)
		}
		got, err := db.GetBilling(t.Context(), sharedDB, f.acct.ID, b.ID)
		if err != nil || got.RefundedAmount != 0 || len(got.Details.V.Refunds) != 0 || got.Status != billingdom.BillingReceived {
			t.Fatalf("refused billing refund wrote %+v (%v)", got, err)
		}
	}
}
