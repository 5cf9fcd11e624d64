package service

import (
	"context"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/workflows"
)

// LaunchRefund is a refund's workflow-start kind (workflow_launches.kind);
// its resource is the refunded deposit.
const LaunchRefund = "refund"

// The sweeper rebuilds a refund's start from the stored deposit.
var _ = registerLaunch(LaunchRefund, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
	d, err := db.TransactionByID(ctx, q, id, domain.TypePixIn)
	return refundLaunch(d), err
})

// refundLaunch is a refund's workflow start, for its create and the sweeper.
func refundLaunch(deposit domain.Transaction) launch {
	return launch{LaunchRefund, deposit.ID, workflows.RefundStart(deposit), workflows.RefundWorkflow, workflows.RefundInput{Deposit: deposit.Referenced()}}
}

// Refunds returns received PIX: full refunds only, at most one per deposit.
type Refunds struct {
	DB        *sqlx.DB
	Temporal  Temporal
	TaskQueue string
	PublicURL string
}

// Create reserves the merchant's debit (the net it kept plus the PIX out
// fee), puts the refund block on the deposit and records the refund
// workflow's intent in one database transaction, then starts the workflow
// (see Charges.Create). The deposit row lock and the workflow id (derived
// from the deposit) make a second refund impossible, even under concurrent
// requests; the same refund asked again (its refundId, or its Idempotency-Key)
// answers with the first refund.
func (s *Refunds) Create(ctx context.Context, acct domain.Account, in domain.NewRefund) (domain.Transaction, error) {
	if in.SubaccountID != "" && !acct.Features.Enabled(domain.FeatureSubaccountPix) {
		return domain.Transaction{}, domain.Forbidden("subaccountId needs sub-accounts with PIX enabled on the account")
	}
	var deposit domain.Transaction
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		d, err := db.FindDeposit(ctx, tx, acct.ID, in.DepositRef, true)
		if err != nil {
			return err
		}
		// The request's id names the deposit it returns (legacyID: the id
		// of a refund asked before ids named their deposit, only compared
		// with this deposit's own refund).
		requestID, legacyID := "", ""
		if in.IdempotencyKey != "" {
			requestID = newID("", acct.ID, "refund", in.IdempotencyKey, d.ID)
			legacyID = newID("", acct.ID, "refund", in.IdempotencyKey)
		}
		// This very refund asked again answers with it, before the checks a
		// new refund needs: the first attempt has moved the deposit on
		// (REVERSED), and its retry must not be told no refund happened.
		if r := d.Details.V.Refund; r != nil && (r.SameRequest(in.RefundID, requestID) || r.SameRequest("", legacyID)) {
			deposit = d
			if r.RefundID == in.RefundID && in.RefundID != "" {
				return nil // asked by its own refundId, which no key can reuse
			}
			return ownsKey(ctx, r.RequestedAt.Time)
		}
		if d.Status != domain.StatusCompleted || d.EndToEndID == nil {
			return domain.Invalidf("only COMPLETED deposits with an endToEndId can be refunded; this one is %s", d.Status)
		}
		if d.Details.V.Refund != nil {
			return domain.Invalidf("deposit %s already has a refund (%s)", d.ID, d.Details.V.Refund.Status)
		}
		if err := medRefusesRefund(ctx, tx, d); err != nil {
			return err
		}
		// A PIX billing's charge is refunded through its billing, which
		// books what it returned: refunded here too, it would pay twice.
		if o := d.Details.V.Owner; o != nil && o.Kind == activities.OwnerBilling {
			return domain.Invalidf("deposit %s is billing %s's payment: refund it through /billings/refund", d.ID, o.ID)
		}
		if in.Amount != d.Amount {
			return domain.Invalid("amount", "must equal the deposit's gross amount of %s (full refunds only)", d.Amount)
		}
		fees, err := refundFees(ctx, tx, acct, d, in.SubaccountID)
		if err != nil {
			return err
		}
		fee := fees.PixOut(d.Amount)
		kept := d.NetAmount
		if sp := d.Details.V.Split; sp != nil {
			kept -= sp.Amount
		}
		r := &domain.RefundBlock{
			Status: domain.StatusPending, RefundID: in.RefundID, RequestedAt: domain.NewTime(time.Now()),
			DebitNet: kept + fee, DepositNet: kept, TransferFee: fee, Nature: in.Nature, Description: in.Description,
			StatementID: domain.DerivedID("", "refund:"+d.ID), RequestID: requestID,
		}
		// The partner gives its split back: a refund must not leave the
		// merchants richer than before the deposit came in.
		if sp := d.Details.V.Split; sp != nil && sp.Amount > 0 {
			r.SplitAccountID, r.SplitAmount = sp.AccountID, sp.Amount
			r.SplitStatementID = domain.DerivedID("", "refund-split:"+d.ID)
		}
		if err := refundChecks(ctx, tx, acct, d, r.DebitNet); err != nil {
			return err
		}
		d.Details.V.Refund = r
		if err := activities.RequestRefund(ctx, tx, d, s.PublicURL); err != nil {
			return err
		}
		if err := recordIntent(ctx, tx, refundLaunch(d)); err != nil {
			return err
		}
		deposit = d
		return nil
	})
	if err != nil {
		return domain.Transaction{}, err
	}
	launchCommitted(ctx, s.DB, s.Temporal, s.TaskQueue, refundLaunch(deposit))
	return db.GetTransaction(ctx, s.DB, acct.ID, deposit.ID, domain.TypePixIn)
}

// medRefusesRefund refuses the refund of a deposit whose MED dispute is
// open (it may still return the money to the payer) or was accepted (it
// did): refunded too, the payer would be paid twice. Called under the
// deposit's row lock, which a MED opening also takes before it stores the
// dispute (Inbox.MEDOpened), so the two cannot both go ahead.
func medRefusesRefund(ctx context.Context, q sqlx.QueryerContext, d domain.Transaction) error {
	m, err := db.TransactionByID(ctx, q, med.MedID(d.ID), domain.TypeMED)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return nil
	case err != nil:
		return err
	case m.Status == med.MedAccepted:
		return domain.Invalidf("deposit %s was returned to the payer by MED dispute %s: it cannot be refunded again", d.ID, m.ID)
	case !med.MedClosed(m.Status):
		return domain.Invalidf("deposit %s has a MED dispute open (%s, %s): it cannot be refunded until the dispute closes", d.ID, m.ID, m.Status)
	}
	return nil
}

// refundFees prices a refund's PIX out: a deposit credited to a sub-account
// is refunded from it (the ledger follows the deposit's wallet) at the
// sub-account's price; a subaccountId sent must be that sub-account.
func refundFees(ctx context.Context, tx *sqlx.Tx, acct domain.Account, d domain.Transaction, sent string) (domain.Fees, error) {
	if d.SubaccountID == nil {
		if sent != "" {
			return domain.Fees{}, domain.Invalid("subaccountId", "is not the sub-account this deposit credited: it credited the main account")
		}
		return acct.Fees, nil
	}
	if sent != "" && sent != *d.SubaccountID {
		return domain.Fees{}, domain.Invalid("subaccountId", "is not the sub-account this deposit credited")
	}
	sa, err := db.GetSubaccount(ctx, tx, acct.ID, *d.SubaccountID)
	if err != nil {
		return acct.Fees, nil // deleted: it held nothing, and the refund will find no money
	}
	return subaccount.Combined(acct.Fees, sa.Pricing.V), nil
}
