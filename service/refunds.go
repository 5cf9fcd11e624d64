package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// Refund natures a requested PIX refund (devolução) may have.
var RefundNatures = []string{"ORIGINAL", "RETIRADA"}

// Refunds returns received PIX: full refunds only, at most one per deposit.
type Refunds struct {
	DB              *sqlx.DB
	Temporal        client.Client
	TaskQueue       string
	PublicURL       string
	AutoSettleAfter time.Duration
}

// NewRefund is a validated refund request.
type NewRefund struct {
	DepositRef  string // transactionId or e2eId
	RefundID    string
	Amount      money.Cents
	Nature      string
	Description string
}

// Create reserves the merchant's debit (the net it kept plus the PIX out
// fee), puts the refund block on the deposit and starts the refund workflow,
// in one database transaction. The deposit row lock and the workflow id
// (derived from the deposit) make a second refund impossible, even under
// concurrent requests.
func (s *Refunds) Create(ctx context.Context, acct domain.Account, in NewRefund) (domain.Transaction, error) {
	var deposit domain.Transaction
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		d, err := db.FindDeposit(ctx, tx, acct.ID, in.DepositRef, true)
		if err != nil {
			return err
		}
		if d.Status != domain.StatusCompleted || d.EndToEndID == nil {
			return domain.Invalidf("only COMPLETED deposits with an endToEndId can be refunded; this one is %s", d.Status)
		}
		if d.Details.V.Refund != nil {
			return domain.Invalidf("deposit %s already has a refund (%s)", d.ID, d.Details.V.Refund.Status)
		}
		if in.Amount != d.Amount {
			return domain.Invalid("amount", "must equal the deposit's gross amount of %s (full refunds only)", d.Amount)
		}
		fee := acct.Fees.PixOut(d.Amount)
		kept := d.NetAmount
		if sp := d.Details.V.Split; sp != nil {
			kept -= sp.Amount
		}
		d.Details.V.Refund = &domain.RefundBlock{
			Status: domain.StatusPending, RefundID: in.RefundID, RequestedAt: domain.NewTime(time.Now()),
			DebitNet: kept + fee, DepositNet: kept, TransferFee: fee, Nature: in.Nature, Description: in.Description,
			StatementID: uuid.NewSHA1(uuid.NameSpaceURL, []byte("refund:"+d.ID)).String(),
		}
		if err := s.request(ctx, tx, d); err != nil {
			return err
		}
		_, err = s.Temporal.ExecuteWorkflow(ctx, workflows.RefundStartOptions(d, s.TaskQueue), workflows.RefundWorkflow,
			workflows.RefundInput{Deposit: d, AutoSettleAfter: s.AutoSettleAfter})
		var started *serviceerror.WorkflowExecutionAlreadyStarted
		if errors.As(err, &started) {
			return domain.Invalidf("deposit %s already has a refund", d.ID)
		}
		if err != nil {
			return fmt.Errorf("%w: start refund workflow: %v", domain.ErrUnavailable, err)
		}
		deposit = d
		return nil
	})
	if err != nil {
		return domain.Transaction{}, err
	}
	return db.GetTransaction(ctx, s.DB, acct.ID, deposit.ID, domain.TypePixIn)
}

// request posts the reserve, stores the block and the PIX_REFUND statement
// line, and writes refund.requested; it assumes the deposit row is locked.
func (s *Refunds) request(ctx context.Context, tx *sqlx.Tx, d domain.Transaction) error {
	r := d.Details.V.Refund
	posted, err := db.Post(ctx, tx, refundPosting("refund:"+d.ID+":reserve", d, -1))
	if err != nil || !posted {
		return err
	}
	line := domain.Transaction{
		ID: r.StatementID, AccountID: d.AccountID, APIKeyID: d.APIKeyID, Type: domain.TypeRefund, Status: domain.StatusPending,
		Amount: r.DebitNet, FeeAmount: r.TransferFee, NetAmount: d.Amount, Description: "Refund of PIX " + d.ID,
		EndToEndID: d.EndToEndID, CreatedAt: r.RequestedAt, Details: domain.SomeJSON(domain.Details{DepositID: d.ID}),
	}
	if _, err := db.InsertTransaction(ctx, tx, line); err != nil {
		return err
	}
	if _, err := db.UpdateTransaction(ctx, tx, d); err != nil {
		return err
	}
	_, err = db.InsertEvent(ctx, tx, d.AccountID, d.APIKeyID, domain.EventRefundRequested, d.ID, d.EventData(s.PublicURL))
	return err
}

// Ensure is the refund workflow's first step: it requests the refund if the
// API died before committing. Short of money then, the refund is FAILED
// with nothing debited.
func (s *Refunds) Ensure(ctx context.Context, want domain.Transaction) (string, error) {
	var status string
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		d, err := db.LockTransaction(ctx, tx, want.ID)
		if err != nil {
			return err
		}
		if d.Details.V.Refund != nil {
			status = d.Details.V.Refund.Status
			return nil
		}
		d.Details.V.Refund = want.Details.V.Refund
		status = domain.StatusPending
		return s.request(ctx, tx, d)
	})
	if errors.Is(err, domain.ErrInsufficientBalance) {
		_, err = transition(ctx, s.DB, s.PublicURL, want.ID, func(_ *sqlx.Tx, d *domain.Transaction) (change, error) {
			if d.Details.V.Refund != nil {
				return change{}, nil
			}
			d.Details.V.Refund = want.Details.V.Refund
			d.Details.V.Refund.Status = domain.StatusFailed
			return emit(domain.EventRefundFailed), nil
		})
		status = domain.StatusFailed
	}
	return status, err
}

// Submit marks the refund PROCESSING once handed to the processor.
func (s *Refunds) Submit(ctx context.Context, depositID string) (domain.Transaction, error) {
	return transition(ctx, s.DB, s.PublicURL, depositID, func(tx *sqlx.Tx, d *domain.Transaction) (change, error) {
		r := d.Details.V.Refund
		if r == nil || r.Status != domain.StatusPending {
			return change{}, nil
		}
		r.Status = domain.StatusProcessing
		return emit(), setLine(ctx, tx, r.StatementID, domain.StatusProcessing, nil)
	})
}

// Complete books a concluded refund: the reserve leaves, the payer gets the
// gross back through PIX clearing, the platform absorbs the original fee and
// split; the deposit becomes REVERSED.
func (s *Refunds) Complete(ctx context.Context, depositID string, n processor.ChargeNotice) (domain.Transaction, error) {
	return transition(ctx, s.DB, s.PublicURL, depositID, func(tx *sqlx.Tx, d *domain.Transaction) (change, error) {
		r := d.Details.V.Refund
		if r == nil || r.Status == domain.StatusCompleted || r.Status == domain.StatusFailed {
			return change{}, nil
		}
		_, err := db.Post(ctx, tx, db.Posting{Key: "refund:" + d.ID + ":settle", AccountID: d.AccountID, TransactionID: r.StatementID,
			Kind: domain.TypeRefund, Description: "PIX refund of " + *d.EndToEndID,
			Entries: NonZero(
				db.Entry{Account: domain.PendingLedger(d.AccountID), Amount: -r.DebitNet},
				db.Entry{Account: domain.LedgerFees, Amount: r.TransferFee},
				db.Entry{Account: domain.LedgerPixClearing, Amount: d.Amount},
				db.Entry{Account: domain.LedgerRefundCosts, Amount: -(d.Amount - r.DepositNet)},
			)})
		if err != nil {
			return change{}, err
		}
		r.Status, r.CompletedAt = domain.StatusCompleted, domain.TimePtr(n.At)
		d.Status = domain.StatusReversed
		return emit(domain.EventRefundCompleted, domain.EventPaymentRefunded), setLine(ctx, tx, r.StatementID, domain.StatusCompleted, r.CompletedAt)
	})
}

// Fail returns the reserve exactly; the deposit stays COMPLETED.
func (s *Refunds) Fail(ctx context.Context, depositID, _ string) (domain.Transaction, error) {
	return transition(ctx, s.DB, s.PublicURL, depositID, func(tx *sqlx.Tx, d *domain.Transaction) (change, error) {
		r := d.Details.V.Refund
		if r == nil || r.Status == domain.StatusCompleted || r.Status == domain.StatusFailed {
			return change{}, nil
		}
		if _, err := db.Post(ctx, tx, refundPosting("refund:"+d.ID+":release", *d, +1)); err != nil {
			return change{}, err
		}
		r.Status = domain.StatusFailed
		return emit(domain.EventRefundFailed), setLine(ctx, tx, r.StatementID, domain.StatusFailed, nil)
	})
}

// setLine moves the PIX_REFUND statement line along with the refund.
func setLine(ctx context.Context, tx *sqlx.Tx, id, status string, at *domain.Time) error {
	line, err := db.LockTransaction(ctx, tx, id)
	if err != nil {
		return err
	}
	line.Status, line.CompletedAt = status, at
	_, err = db.UpdateTransaction(ctx, tx, line)
	return err
}

// Signal forwards a processor notice to the deposit's refund workflow.
func (s *Refunds) Signal(ctx context.Context, d domain.Transaction, n processor.ChargeNotice) error {
	r := d.Details.V.Refund
	if r == nil || r.Status == domain.StatusCompleted || r.Status == domain.StatusFailed {
		return domain.Invalidf("deposit %s has no refund in progress", d.ID)
	}
	return signal(ctx, s.Temporal, workflows.RefundWorkflowID(d.ID), workflows.NoticeSignal, n,
		fmt.Sprintf("the refund of %s is no longer in progress", d.ID))
}

// refundPosting reserves (sign −1) or returns (sign +1) a refund's debit. The
// part that repays the deposit's own net carries the deposit's lock date, so
// it consumes (or restores) exactly the locked money the deposit added: a
// refund within 24 h neither frees nor freezes other money.
func refundPosting(key string, d domain.Transaction, sign money.Cents) db.Posting {
	r := d.Details.V.Refund
	var lock *time.Time
	if d.CompletedAt != nil {
		t := d.CompletedAt.Add(domain.ReceivedLock)
		lock = &t
	}
	desc := "refund reserve"
	if sign > 0 {
		desc = "refund reserve returned"
	}
	return db.Posting{Key: key, AccountID: d.AccountID, TransactionID: r.StatementID, Kind: domain.TypeRefund, Description: desc,
		Entries: NonZero(
			db.Entry{Account: domain.AvailableLedger(d.AccountID), Amount: sign * r.DepositNet, LockedUntil: lock},
			db.Entry{Account: domain.AvailableLedger(d.AccountID), Amount: sign * r.TransferFee},
			db.Entry{Account: domain.PendingLedger(d.AccountID), Amount: -sign * r.DebitNet},
		)}
}
