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
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/workflows"
)

// LaunchTransfer is the PIX out's workflow-start kind (workflow_launches.kind).
const LaunchTransfer = "transfer"

// The sweeper rebuilds a PIX out's start from the stored transfer.
var _ = registerLaunch(LaunchTransfer, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
	t, err := db.TransactionByID(ctx, q, id, domain.TypePixOut)
	return transferLaunch(t), err
})

// transferLaunch is a PIX out's workflow start, for its create and the sweeper.
func transferLaunch(t domain.Transaction) launch {
	return launch{LaunchTransfer, t.ID, workflows.TransferStart(t), workflows.TransferWorkflow, workflows.TransferInput{Transfer: t.Referenced()}}
}

// Transfers sends PIX: create (reserve + workflow) and review decisions.
type Transfers struct {
	DB        *sqlx.DB
	Temporal  Temporal
	TaskQueue string
	PublicURL string
}

// Create prices the transfer and commits its record, the reserve of its
// debit (withdrawable money only) and its workflow intent in one database
// transaction, then starts the workflow (see Charges.Create). A retry
// (the same Idempotency-Key, or a repeated externalReference) answers with
// the first transfer before anything is checked; the same externalReference
// for another amount or key is a 400.
func (s *Transfers) Create(ctx context.Context, acct domain.Account, key domain.APIKey, in domain.NewTransfer) (domain.Transaction, error) {
	id := newID("", acct.ID, "transfer", in.IdempotencyKey)
	// What an earlier attempt did comes first: its limits, lock mode and
	// balance were checked then, and the money may have moved since.
	if t, found, err := earlierMove(ctx, s.DB, acct.ID, id, in.IdempotencyKey, in.ExternalReference, domain.TypePixOut,
		func(t domain.Transaction) bool {
			return t.Amount == in.Amount && t.Details.V.PixKey == in.PixKey && ptrEq(t.SubaccountID, in.SubaccountID)
		}); found || err != nil {
		return t, err
	}
	fees := acct.Fees
	if in.SubaccountID != "" {
		sa, err := pixSubaccount(ctx, s.DB, acct, in.SubaccountID)
		if err != nil {
			return domain.Transaction{}, err
		}
		fees = subaccount.Combined(acct.Fees, sa.Pricing.V)
	}
	fee, debit, sent, err := fees.PixOutPrice(in.Amount, in.CoverFee)
	if err != nil {
		return domain.Transaction{}, err
	}
	now := time.Now().UTC()
	t := domain.Transaction{
		ID: id, AccountID: acct.ID, APIKeyID: &key.ID, Type: domain.TypePixOut,
		Status: domain.StatusPending, Amount: in.Amount, FeeAmount: fee, NetAmount: sent, Description: in.Description,
		ExternalReference: in.ExternalReference, CreatedAt: domain.NewTime(now),
		Details: domain.SomeJSON(domain.Details{PixKey: in.PixKey, PixKeyType: in.PixKeyType, Debit: debit, CoverFee: in.CoverFee}),
	}
	if in.SubaccountID != "" {
		t.SubaccountID = &in.SubaccountID
	}
	t.Details.V.SecurityReview = acct.ReviewHold(in.Amount)
	l := transferLaunch(t)
	err = db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		if in.SubaccountID != "" {
			if err := pixOutChecks(ctx, tx, acct, in.SubaccountID, in.Amount); err != nil {
				return err
			}
		}
		if err := activities.ReserveTransfer(ctx, tx, t, s.PublicURL); err != nil {
			return err
		}
		return recordIntent(ctx, tx, l)
	})
	if err != nil {
		return domain.Transaction{}, err
	}
	launchCommitted(ctx, s.DB, s.Temporal, s.TaskQueue, l)
	return db.GetTransaction(ctx, s.DB, acct.ID, t.ID, domain.TypePixOut)
}

// Review forwards an operator's security review decision ("approve" or
// "reject") to a held withdrawal's workflow — a PIX out or a crypto
// withdrawal, held by the same rule (Account.ReviewHold) — naming it: the
// workflow ignores a decision naming another one, so a sealed "approve"
// copied out of one history approves no other withdrawal.
func (s *Transfers) Review(ctx context.Context, id, decision string) error {
	t, err := s.Get(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		t, err = db.TransactionByID(ctx, s.DB, id, domain.TypeCryptoOut)
	}
	if err != nil {
		return err
	}
	if r := t.Details.V.SecurityReview; r == nil || !r.Pending {
		return domain.Invalidf("transfer %s is not held for security review", t.ID)
	}
	d := workflows.ReviewDecision{TransferID: t.ID, Decision: decision}
	if t.Type == domain.TypeCryptoOut {
		return signalWithStart(ctx, s.Temporal, s.TaskQueue, cryptoLaunch(t), workflows.ReviewSignal, d,
			fmt.Sprintf("crypto withdrawal %s is no longer in progress", t.ID))
	}
	if err := signalTransfer(ctx, s.Temporal, t, workflows.ReviewSignal, d); err != nil {
		return err
	}
	// The bare decision too, for a transfer whose workflow started before
	// decisions named their transfer: it reads only that form (and a new
	// one ignores it). Such workflows end within workflows.ReviewTimeout of
	// the upgrade; after that this second signal can go. Having decided
	// on the first, the workflow may have ended: that is no error.
	err = signalTransfer(ctx, s.Temporal, t, workflows.ReviewSignal, decision)
	if errors.Is(err, domain.ErrInvalid) {
		return nil
	}
	return err
}

// Get loads a PIX out by id, whatever its account (workflow and operator side).
func (s *Transfers) Get(ctx context.Context, id string) (domain.Transaction, error) {
	return db.TransactionByID(ctx, s.DB, id, domain.TypePixOut)
}
