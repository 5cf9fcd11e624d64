package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// MED disputes. The processor reports an infraction through the
// Inbox (MEDOpened), which opens the dispute (record, block, med.created)
// and starts its MEDWorkflow; the merchant reads disputes and sends
// evidence through MEDs; the processor's decision comes back through the
// Inbox (MEDNotice). MED has no feature switch in CONTRACTS.md: its routes
// are always on (domain.FeatureMED).

// LaunchMED is a dispute's workflow-start kind (workflow_launches.kind).
const LaunchMED = "med"

// The sweeper rebuilds a dispute's start from the stored record.
var _ = registerLaunch(LaunchMED, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
	m, err := db.TransactionByID(ctx, q, id, domain.TypeMED)
	return medLaunch(m), err
})

// medLaunch is a dispute's workflow start, for the Inbox and the sweeper.
func medLaunch(m domain.Transaction) launch {
	return launch{LaunchMED, m.ID, workflows.MEDStart(m), workflows.MEDWorkflow, workflows.MEDInput{MED: m}}
}

// MEDs is the merchant's side of MED disputes: list, get, evidence.
type MEDs struct {
	DB        *sqlx.DB
	Temporal  Temporal
	TaskQueue string
	PublicURL string
	// Now is the clock the defence deadline is checked against (tests).
	Now func() time.Time
}

func (s *MEDs) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// List is one page of the account's disputes that f selects (f.Types is
// set here: MED only).
func (s *MEDs) List(ctx context.Context, acct domain.Account, f ListFilter) ([]domain.Transaction, int, error) {
	f.Types = []string{domain.TypeMED}
	return db.ListTransactions(ctx, s.DB, acct.ID, f)
}

// Get finds the account's dispute by its id or its protocol.
func (s *MEDs) Get(ctx context.Context, acct domain.Account, idOrProtocol string) (domain.Transaction, error) {
	m, err := db.GetTransaction(ctx, s.DB, acct.ID, idOrProtocol, domain.TypeMED)
	if err != nil {
		return m, domain.NotFound("MED")
	}
	return m, nil
}

// Evidence records the merchant's defence on its dispute (files stored by
// content hash, UNDER_REVIEW, med.evidence_sent) and tells the dispute's
// workflow, which forwards it to the processor. With the account's
// automatic contest on and the dispute above R$ 50 it is refused with a 403
// (the service defends on its own); a dispute that is no longer OPEN, or
// past its defence deadline, with a 400. A lost signal is not an error: the
// workflow forwards a recorded defence at the deadline anyway.
func (s *MEDs) Evidence(ctx context.Context, acct domain.Account, idOrProtocol string, in med.NewEvidence) (domain.Transaction, error) {
	m, err := s.Get(ctx, acct, idOrProtocol)
	if err != nil {
		return m, err
	}
	if med.AutoContests(acct.Features, m.Amount) {
		return m, domain.Forbidden("the automatic contest is on for this account and this dispute is above R$ 50: " +
			"Jangada sends the defence itself, evidence is not accepted")
	}
	m, err = activities.RecordEvidence(ctx, &activities.Base{DB: s.DB, PublicURL: s.PublicURL}, activities.EvidenceInput{
		ID: m.ID, Description: in.Description, Files: in.Files, At: s.now().UTC(),
	})
	if err != nil {
		return m, err
	}
	if err := signal(ctx, s.Temporal, workflows.MEDWorkflowID(m.ID), workflows.MEDEvidenceSignal,
		workflows.MEDEvidence{MEDID: m.ID}, "MED "+m.ID+" has closed"); err != nil {
		slog.WarnContext(ctx, "MED evidence recorded; its workflow forwards it at the deadline", "med", m.ID, "error", err)
	}
	return m, nil
}

// MEDOpened opens the dispute the processor reports against a received
// PIX (found by endToEndId): checks the report against the deposit, then,
// in one transaction with the deposit locked, blocks what the wallet holds
// of the disputed value, stores the record and med.created, and records the
// workflow's intent; then starts the workflow. The same infraction
// reported again answers the same dispute; one deposit has one dispute.
func (s *Inbox) MEDOpened(ctx context.Context, n processor.MEDOpening) (string, error) {
	if n.At.IsZero() {
		n.At = time.Now().UTC()
	}
	var m domain.Transaction
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		d, err := db.DepositByEndToEnd(ctx, tx, n.EndToEndID, true)
		if err != nil {
			return err
		}
		if existing, err := db.TransactionByID(ctx, tx, med.MedID(d.ID), domain.TypeMED); err == nil {
			if deref(existing.ReferenceID) != n.InfractionID {
				return domain.Invalidf("PIX %s already has a MED dispute (%s)", d.ID, deref(existing.ExternalReference))
			}
			m = existing
			return nil
		}
		if err := medOpeningChecks(d, &n); err != nil {
			return err
		}
		if err := billingRefundRefusesMED(ctx, tx, d); err != nil {
			return err
		}
		acct, err := db.GetAccount(ctx, tx, d.AccountID)
		if err != nil {
			return err
		}
		if m, err = activities.OpenMED(ctx, tx, d, activities.NewMED(d, n, acct.Features), s.PublicURL); err != nil {
			return err
		}
		return recordIntent(ctx, tx, medLaunch(m))
	})
	if err != nil {
		return "", err
	}
	launchCommitted(ctx, s.DB, s.Temporal, s.TaskQueue, medLaunch(m))
	return m.ID, nil
}

// medOpeningChecks are the rules an infraction report must meet: a PIX
// paid (COMPLETED) with no refund under way or done, reported within 80
// days of its payment, for at most its amount (0: the whole amount).
func medOpeningChecks(d domain.Transaction, n *processor.MEDOpening) error {
	if d.Status != domain.StatusCompleted || d.CompletedAt == nil {
		return domain.Invalidf("PIX %s is %s: only a paid PIX can be disputed", d.ID, d.Status)
	}
	if r := d.Details.V.Refund; r != nil && r.Status != domain.StatusFailed {
		return domain.Invalidf("PIX %s has a refund (%s): its money is already going back to the payer", d.ID, r.Status)
	}
	if n.At.Sub(d.CompletedAt.Time) > med.MedOpeningLimit {
		return domain.Invalidf("PIX %s was paid more than 80 days ago: MED no longer applies", d.ID)
	}
	if n.Amount == 0 {
		n.Amount = d.Amount
	}
	if n.Amount < 0 || n.Amount > d.Amount {
		return domain.Invalid("amount", "must be at most the PIX's amount of %s", d.Amount)
	}
	return nil
}

// billingRefundRefusesMED refuses a dispute against a PIX billing's
// payment once the billing has refunds: the billing's refund returns the
// money without marking the charge's deposit (medOpeningChecks sees no
// refund there), and a dispute would return it again. The billing's row
// lock, taken after the deposit's as a charge's transition takes them,
// waits for a billing refund in flight.
func billingRefundRefusesMED(ctx context.Context, tx *sqlx.Tx, d domain.Transaction) error {
	o := d.Details.V.Owner
	if o == nil || o.Kind != activities.OwnerBilling {
		return nil
	}
	b, err := db.LockBilling(ctx, tx, o.ID)
	if errors.Is(err, domain.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if b.RefundedAmount > 0 || len(b.Details.V.Refunds) > 0 {
		return domain.Invalidf("PIX %s paid billing %s, which has a refund of %s: its money is already going back to the payer",
			d.ID, b.ID, b.RefundedAmount)
	}
	return nil
}

// MEDNotice forwards the processor's decision to the dispute's workflow
// (starting it first if its start was lost). A closed dispute refuses it
// with a 400.
func (s *Inbox) MEDNotice(ctx context.Context, n processor.MEDNotice) error {
	m, err := db.MEDByInfraction(ctx, s.DB, n.InfractionID)
	if err != nil {
		return err
	}
	if med.MedClosed(m.Status) {
		return domain.Invalidf("MED %s is %s already", m.ID, m.Status)
	}
	n.MEDID = m.ID // see ChargeNotice
	return signalWithStart(ctx, s.Temporal, s.TaskQueue, medLaunch(m), workflows.NoticeSignal, n,
		fmt.Sprintf("MED %s has closed", m.ID))
}

// OpenMED simulates an infraction report against the account's received
// PIX (by id or endToEndId) and answers the dispute's id.
func (s *Sandbox) OpenMED(ctx context.Context, acct domain.Account, o med.MedOpening) (Simulated, error) {
	d, err := s.deposit(ctx, acct, o.TransactionID)
	if err != nil {
		return Simulated{}, err
	}
	if d.EndToEndID == nil {
		return Simulated{}, domain.Invalid("transactionId", "must be a paid PIX (this one is %s)", d.Status)
	}
	id, err := s.Simulator.OpenMED(ctx, *d.EndToEndID, o.Amount, o.Reason)
	if err != nil {
		return Simulated{}, err
	}
	return Simulated{ID: id, Outcome: "opened"}, nil
}

// ResolveMED simulates the processor's decision on the account's dispute.
func (s *Sandbox) ResolveMED(ctx context.Context, acct domain.Account, id, status string) (Simulated, error) {
	m, err := db.GetTransaction(ctx, s.DB, acct.ID, id, domain.TypeMED)
	if err != nil {
		return Simulated{}, domain.NotFound("MED")
	}
	if med.MedClosed(m.Status) {
		return Simulated{}, domain.Invalidf("MED %s is %s already", m.ID, m.Status)
	}
	return simulated(m, status, s.Simulator.ResolveMED(ctx, deref(m.ReferenceID), status))
}
