package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"go.temporal.io/sdk/client"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// Transfers sends PIX: create (reserve + workflow), review decisions,
// processor notices, and the transitions its workflow's activities run.
type Transfers struct {
	DB        *sqlx.DB
	Temporal  client.Client
	TaskQueue string
	PublicURL string
	// AutoSettleAfter, when positive, makes the sandbox settle each PIX out
	// after this long (a durable timer in its workflow).
	AutoSettleAfter time.Duration
}

// NewTransfer is a validated PIX out request.
type NewTransfer struct {
	Amount            money.Cents
	Description       string
	PixKey            string
	PixKeyType        string
	CoverFee          bool
	ExternalReference *string
}

// Create prices the transfer, reserves its debit from withdrawable money and
// starts its workflow in one database transaction (see Charges.Create for
// why). A repeated externalReference returns the first transfer.
func (s *Transfers) Create(ctx context.Context, acct domain.Account, key domain.APIKey, in NewTransfer) (domain.Transaction, error) {
	if in.ExternalReference != nil {
		if t, err := db.GetTransaction(ctx, s.DB, acct.ID, *in.ExternalReference, domain.TypePixOut); err == nil {
			return t, nil
		}
	}
	fee := acct.Fees.PixOut(in.Amount)
	debit, sent := in.Amount+fee, in.Amount
	if !in.CoverFee {
		debit, sent = in.Amount, in.Amount-fee
		if sent <= 0 {
			return domain.Transaction{}, domain.Invalid("amount", "must be greater than the PIX fee of %s", fee)
		}
	}
	now := time.Now().UTC()
	t := domain.Transaction{
		ID: uuid.Must(uuid.NewV7()).String(), AccountID: acct.ID, APIKeyID: &key.ID, Type: domain.TypePixOut,
		Status: domain.StatusPending, Amount: in.Amount, FeeAmount: fee, NetAmount: sent, Description: in.Description,
		ExternalReference: in.ExternalReference, CreatedAt: domain.NewTime(now),
		Details: domain.SomeJSON(domain.Details{PixKey: in.PixKey, PixKeyType: in.PixKeyType, Debit: debit, CoverFee: in.CoverFee}),
	}
	if r := reviewReason(acct, in.Amount); r != "" {
		t.Details.V.SecurityReview = &domain.SecurityReview{Pending: true, Reason: r}
	}
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		if err := s.reserve(ctx, tx, t); err != nil {
			return err
		}
		_, err := s.Temporal.ExecuteWorkflow(ctx, workflows.TransferStartOptions(t, s.TaskQueue), workflows.TransferWorkflow, s.input(t))
		if err != nil {
			return fmt.Errorf("%w: start transfer workflow: %v", domain.ErrUnavailable, err)
		}
		return nil
	})
	if err != nil {
		return domain.Transaction{}, err
	}
	return db.GetTransaction(ctx, s.DB, acct.ID, t.ID, domain.TypePixOut)
}

// reviewReason is the anti-fraud rule that holds a PIX out for an operator:
// an amount at or above the account's securityReviewThreshold.
func reviewReason(acct domain.Account, amount money.Cents) string {
	if th := acct.SecurityReviewThreshold; th != nil && *th > 0 && amount >= *th {
		return "amount at or above the account's security review threshold of " + th.Format()
	}
	return ""
}

func (s *Transfers) input(t domain.Transaction) workflows.TransferInput {
	d := t.Details.V
	return workflows.TransferInput{
		Transfer: t, AutoSettleAfter: s.AutoSettleAfter,
		FailAtSettlement: processor.FailsAtSettlement(d.PixKeyType, d.PixKey),
	}
}

// reserve writes the transfer, its reserve posting (withdrawable money only)
// and transfer.created. It writes nothing when the row exists already.
func (s *Transfers) reserve(ctx context.Context, tx *sqlx.Tx, t domain.Transaction) error {
	inserted, err := db.InsertTransaction(ctx, tx, t)
	if err != nil || !inserted {
		return err
	}
	if _, err := db.InsertEvent(ctx, tx, t.AccountID, t.APIKeyID, domain.EventTransferCreated, t.ID, t.EventData(s.PublicURL)); err != nil {
		return err
	}
	// The balance lock comes last, to be held as briefly as possible.
	if err := db.LockLedgerAccounts(ctx, tx, domain.AvailableLedger(t.AccountID)); err != nil {
		return err
	}
	if err := db.RequireWithdrawable(ctx, tx, t.AccountID, t.Details.V.Debit); err != nil {
		return err
	}
	_, err = db.Post(ctx, tx, reservePosting("transfer:"+t.ID+":reserve", t.AccountID, t.ID, domain.TypePixOut, t.Details.V.Debit))
	return err
}

// Ensure is the workflow's first step: it writes the transfer if the API
// died before committing it. Short of money then, the transfer is stored as
// FAILED with nothing debited. It returns the stored status.
func (s *Transfers) Ensure(ctx context.Context, t domain.Transaction) (string, error) {
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error { return s.reserve(ctx, tx, t) })
	if errors.Is(err, domain.ErrInsufficientBalance) {
		t.Status = domain.StatusFailed
		err = db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
			inserted, err := db.InsertTransaction(ctx, tx, t)
			if err != nil || !inserted {
				return err
			}
			_, err = db.InsertEvent(ctx, tx, t.AccountID, t.APIKeyID, domain.EventTransferFailed, t.ID, t.EventData(s.PublicURL))
			return err
		})
	}
	if err != nil {
		return "", err
	}
	stored, err := db.TransactionByID(ctx, s.DB, t.ID, domain.TypePixOut)
	return stored.Status, err
}

// Decide records an operator's review decision; the workflow then submits or fails the transfer.
func (s *Transfers) Decide(ctx context.Context, id, decision string) (domain.Transaction, error) {
	return transition(ctx, s.DB, s.PublicURL, id, func(_ *sqlx.Tx, t *domain.Transaction) (change, error) {
		r := t.Details.V.SecurityReview
		if r == nil || !r.Pending {
			return change{}, nil
		}
		r.Pending, r.Decision, r.DecidedAt = false, decision, domain.TimePtr(time.Now())
		return emit(), nil
	})
}

// Submit marks the transfer PROCESSING once handed to the processor.
func (s *Transfers) Submit(ctx context.Context, id string) (domain.Transaction, error) {
	return transition(ctx, s.DB, s.PublicURL, id, func(_ *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status != domain.StatusPending {
			return change{}, nil
		}
		t.Status = domain.StatusProcessing
		ref := "sbx_out_" + t.ID[len(t.ID)-12:]
		t.ReferenceID = &ref
		return emit(), nil
	})
}

// Complete books a settled PIX out: the reserve leaves through PIX clearing,
// the fee to revenue; the recipient is filled.
func (s *Transfers) Complete(ctx context.Context, id string, n processor.ChargeNotice) (domain.Transaction, error) {
	return transition(ctx, s.DB, s.PublicURL, id, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status == domain.StatusCompleted || t.Status == domain.StatusFailed {
			return change{}, nil
		}
		debit := t.Details.V.Debit
		_, err := db.Post(ctx, tx, db.Posting{Key: "transfer:" + t.ID + ":settle", AccountID: t.AccountID, TransactionID: t.ID,
			Kind: domain.TypePixOut, Description: "PIX sent " + n.EndToEndID,
			Entries: NonZero(
				db.Entry{Account: domain.PendingLedger(t.AccountID), Amount: -debit},
				db.Entry{Account: domain.LedgerPixClearing, Amount: t.NetAmount},
				db.Entry{Account: domain.LedgerFees, Amount: debit - t.NetAmount},
			)})
		if err != nil {
			return change{}, err
		}
		t.Status, t.CompletedAt = domain.StatusCompleted, domain.TimePtr(n.At)
		if n.EndToEndID != "" {
			t.EndToEndID = &n.EndToEndID
		}
		if n.Recipient != nil {
			t.Recipient = domain.SomeJSON(*n.Recipient)
		}
		return emit(domain.EventTransferCompleted), nil
	})
}

// Fail returns the reserve exactly and marks the transfer FAILED.
func (s *Transfers) Fail(ctx context.Context, id, reason string) (domain.Transaction, error) {
	return transition(ctx, s.DB, s.PublicURL, id, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status == domain.StatusCompleted || t.Status == domain.StatusFailed {
			return change{}, nil
		}
		if _, err := db.Post(ctx, tx, releasePosting("transfer:"+t.ID+":release", t.AccountID, t.ID, domain.TypePixOut, t.Details.V.Debit)); err != nil {
			return change{}, err
		}
		t.Status = domain.StatusFailed
		if r := t.Details.V.SecurityReview; r != nil && r.Pending {
			r.Pending = false
		}
		return emit(domain.EventTransferFailed), nil
	})
}

// Signal forwards a review decision or a processor notice to the workflow.
func (s *Transfers) Signal(ctx context.Context, t domain.Transaction, name string, arg any) error {
	if t.Status == domain.StatusCompleted || t.Status == domain.StatusFailed {
		return domain.Invalidf("transfer %s is %s already", t.ID, t.Status)
	}
	return signal(ctx, s.Temporal, workflows.TransferWorkflowID(t.ID), name, arg,
		fmt.Sprintf("transfer %s is no longer in progress", t.ID))
}

// Get loads a PIX out by id, whatever its account (workflow and operator side).
func (s *Transfers) Get(ctx context.Context, id string) (domain.Transaction, error) {
	return db.TransactionByID(ctx, s.DB, id, domain.TypePixOut)
}
