package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/bureau"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// LaunchDunning is a dunning's workflow-start kind (workflow_launches.kind).
const LaunchDunning = "dunning"

// The sweeper rebuilds a dunning's start from the stored row.
var _ = registerLaunch(LaunchDunning, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
	d, err := db.GetDunning(ctx, q, "", id)
	return dunningLaunch(d), err
})

// dunningLaunch is a dunning's workflow start, for its create and the sweeper.
func dunningLaunch(d bureau.Dunning) launch {
	return launch{LaunchDunning, d.ID, workflows.DunningStart(d), workflows.DunningWorkflow, workflows.DunningInput{Dunning: d}}
}

// Bureau is the credit bureau's use case: dunnings of overdue billings
// (one workflow each, following the bureau's analysis) and credit reports
// (answered at once). Every route is behind the account feature
// creditBureau, checked again here (gate).
type Bureau struct {
	DB        *sqlx.DB
	Temporal  Temporal
	TaskQueue string
	Processor processor.Bureau
}

// Simulate says whether a dunning of the billing can be requested, with
// its fee and value. Another account's billing is not found.
func (s *Bureau) Simulate(ctx context.Context, acct domain.Account, payment string) (bureau.DunningSimulation, error) {
	if err := acct.Require(domain.FeatureCreditBureau); err != nil {
		return bureau.DunningSimulation{}, err
	}
	b, err := db.GetBilling(ctx, s.DB, acct.ID, payment)
	if err != nil {
		return bureau.DunningSimulation{}, err
	}
	existing, err := db.StandingDunning(ctx, s.DB, acct.ID, b.ID)
	if err != nil {
		return bureau.DunningSimulation{}, err
	}
	reason := bureau.DunningEligibility(acct, b.Status, existing)
	return bureau.DunningSimulation{Payment: b.ID, CanBeRequested: reason == "", Reason: reason, Fee: bureau.DunningFee, Value: b.Amount}, nil
}

// CreateDunning requests a dunning of an OVERDUE billing of the account:
// in one database transaction the row (with its documents file) and the
// fee's debit from withdrawable money (activities.InsertDunning) and the
// workflow intent; then the workflow starts. A retry under the same
// Idempotency-Key answers with the first attempt's dunning first.
func (s *Bureau) CreateDunning(ctx context.Context, acct domain.Account, in bureau.NewDunning) (bureau.DunningView, error) {
	if err := acct.Require(domain.FeatureCreditBureau); err != nil {
		return bureau.DunningView{}, err
	}
	id := newID("dun_", acct.ID, "dunning", in.IdempotencyKey, in.Payment)
	if in.IdempotencyKey != "" {
		d, err := db.GetDunning(ctx, s.DB, acct.ID, id)
		if err == nil {
			return d.View(), ownsKey(ctx, d.CreatedAt.Time)
		}
		if !errors.Is(err, domain.ErrNotFound) {
			return bureau.DunningView{}, err
		}
	}
	b, err := db.GetBilling(ctx, s.DB, acct.ID, in.Payment)
	if errors.Is(err, domain.ErrNotFound) {
		return bureau.DunningView{}, domain.NotFound("billing")
	}
	if err != nil {
		return bureau.DunningView{}, err
	}
	existing, err := db.StandingDunning(ctx, s.DB, acct.ID, b.ID)
	if err != nil {
		return bureau.DunningView{}, err
	}
	if reason := bureau.DunningEligibility(acct, b.Status, existing); reason != "" {
		return bureau.DunningView{}, domain.Invalid("payment", "cannot be sent to the credit bureau: %s", reason)
	}
	d := bureau.Dunning{
		ID: id, AccountID: acct.ID, Status: bureau.DunningPending, Type: bureau.DunningTypeCreditBureau, Payment: b.ID,
		Value: b.Amount, Fee: bureau.DunningFee, Description: in.Description, Debtor: domain.SomeJSON(in.Debtor),
		DocumentName: in.DocumentName, DocumentType: in.DocumentType, CreatedAt: domain.NewTime(time.Now().Truncate(time.Millisecond)),
	}
	l := dunningLaunch(d)
	err = db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		fresh, err := activities.InsertDunning(ctx, tx, d, in.Document)
		if err != nil || !fresh {
			return err
		}
		return recordIntent(ctx, tx, l)
	})
	if errors.Is(err, domain.ErrInsufficientBalance) {
		return bureau.DunningView{}, domain.Insufficient("the withdrawable balance does not cover the dunning fee of %s", bureau.DunningFee.Format())
	}
	if err != nil {
		return bureau.DunningView{}, err
	}
	launchCommitted(ctx, s.DB, s.Temporal, s.TaskQueue, l)
	return d.View(), nil
}

// GetDunning returns one of the account's dunnings.
func (s *Bureau) GetDunning(ctx context.Context, acct domain.Account, id string) (bureau.DunningView, error) {
	if err := acct.Require(domain.FeatureCreditBureau); err != nil {
		return bureau.DunningView{}, err
	}
	d, err := db.GetDunning(ctx, s.DB, acct.ID, id)
	return d.View(), err
}

// ListDunnings returns the account's dunnings matching f and how many match.
func (s *Bureau) ListDunnings(ctx context.Context, acct domain.Account, f bureau.DunningFilter) ([]bureau.Dunning, int, error) {
	if err := acct.Require(domain.FeatureCreditBureau); err != nil {
		return nil, 0, err
	}
	return db.ListDunnings(ctx, s.DB, acct.ID, f)
}

// CreateReport asks the bureau for the credit report of a CPF/CNPJ for one
// of the store's customers, and stores it with its fee's debit in one
// database transaction. The bureau answers at once (idempotent on the
// report id, derived from the Idempotency-Key): the create returns it. A
// retry finds the first attempt's report first.
func (s *Bureau) CreateReport(ctx context.Context, acct domain.Account, in bureau.NewReport) (bureau.Report, error) {
	if err := acct.Require(domain.FeatureCreditBureau); err != nil {
		return bureau.Report{}, err
	}
	id := newID("rep_", acct.ID, "report", in.IdempotencyKey)
	if in.IdempotencyKey != "" {
		r, err := db.GetReport(ctx, s.DB, acct.ID, id)
		if err == nil {
			return r, ownsKey(ctx, r.CreatedAt.Time)
		}
		if !errors.Is(err, domain.ErrNotFound) {
			return r, err
		}
	}
	if _, err := db.GetCustomer(ctx, s.DB, acct.ID, in.CustomerID); errors.Is(err, domain.ErrNotFound) {
		return bureau.Report{}, domain.Invalid("customer", "is not a customer of this account")
	} else if err != nil {
		return bureau.Report{}, err
	}
	b, err := db.GetBalance(ctx, s.DB, acct.ID)
	if err != nil {
		return bureau.Report{}, err
	}
	if b.Withdrawable < bureau.ReportFee { // spare the bureau a query nobody pays for
		return bureau.Report{}, domain.Insufficient("the withdrawable balance does not cover the report fee of %s", bureau.ReportFee.Format())
	}
	rep, err := s.Processor.CreditReport(ctx, processor.ReportRequest{ID: id, CpfCnpj: in.CpfCnpj})
	if err != nil {
		return bureau.Report{}, fmt.Errorf("%w: credit bureau: %v", domain.ErrUnavailable, err)
	}
	r := bureau.Report{ID: id, AccountID: acct.ID, Status: bureau.ReportCompleted, Customer: in.CustomerID, CpfCnpj: in.CpfCnpj,
		Fee: bureau.ReportFee, Score: rep.Score, Restrictions: rep.Restrictions, ReferenceID: rep.ReferenceID,
		CreatedAt: domain.NewTime(time.Now().Truncate(time.Millisecond))}
	err = db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		_, err := activities.InsertReport(ctx, tx, r)
		return err
	})
	if errors.Is(err, domain.ErrInsufficientBalance) {
		return bureau.Report{}, domain.Insufficient("the withdrawable balance does not cover the report fee of %s", bureau.ReportFee.Format())
	}
	if err != nil {
		return bureau.Report{}, err
	}
	return db.GetReport(ctx, s.DB, acct.ID, id)
}

// GetReport returns one of the account's credit reports.
func (s *Bureau) GetReport(ctx context.Context, acct domain.Account, id string) (bureau.Report, error) {
	if err := acct.Require(domain.FeatureCreditBureau); err != nil {
		return bureau.Report{}, err
	}
	return db.GetReport(ctx, s.DB, acct.ID, id)
}

// ListReports returns a page of the account's credit reports.
func (s *Bureau) ListReports(ctx context.Context, acct domain.Account, page, pageSize int) ([]bureau.Report, int, error) {
	if err := acct.Require(domain.FeatureCreditBureau); err != nil {
		return nil, 0, err
	}
	return db.ListReports(ctx, s.DB, acct.ID, page, pageSize)
}

// DunningNotice forwards the bureau's answer to a dunning's workflow
// (processor.Inbox). A dunning concluded already refuses it (400).
func (s *Inbox) DunningNotice(ctx context.Context, dunningID string, n processor.DunningNotice) error {
	d, err := db.GetDunning(ctx, s.DB, "", dunningID)
	if err != nil {
		return err
	}
	if d.Status == bureau.DunningProcessed || d.Status == bureau.DunningDenied {
		return domain.Invalidf("dunning %s is %s already", d.ID, d.Status)
	}
	n.DunningID = d.ID // its workflow ignores a notice naming another
	return signal(ctx, s.Temporal, workflows.DunningWorkflowID(d.ID), workflows.NoticeSignal, n,
		fmt.Sprintf("dunning %s is no longer with the bureau", d.ID))
}
