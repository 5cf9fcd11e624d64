package service

import (
	"context"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// LaunchRecharge is the mobile recharge's workflow-start kind (workflow_launches.kind).
const LaunchRecharge = "recharge"

// The sweeper rebuilds a recharge's start from the stored record.
var _ = registerLaunch(LaunchRecharge, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
	t, err := db.TransactionByID(ctx, q, id, domain.TypeMobileRecharge)
	return rechargeLaunch(t), err
})

// rechargeLaunch is a recharge's workflow start, for its create and the sweeper.
func rechargeLaunch(t domain.Transaction) launch {
	return launch{LaunchRecharge, t.ID, workflows.RechargeStart(t), workflows.RechargeWorkflow, workflows.RechargeInput{Recharge: t.Referenced()}}
}

// Recharges tops up mobile phones: the operator's offer for a number, the
// create (paid at once from withdrawable money, one workflow per recharge)
// and the cancellation while the operator has not delivered it. Reads go
// through Transactions (type MOBILE_RECHARGE).
type Recharges struct {
	DB        *sqlx.DB
	Temporal  Temporal
	TaskQueue string
	Processor processor.Recharges
}

// RechargeProvider is the answer of provider/{phone}: the operator and the
// amounts it sells for the number.
type RechargeProvider struct {
	Phone    string        `json:"phone"`
	Operator string        `json:"operator"`
	Amounts  []money.Cents `json:"amounts"`
}

// Provider answers the number's operator and the amounts it offers.
func (s *Recharges) Provider(ctx context.Context, acct domain.Account, phone mobile.MobileNumber) (RechargeProvider, error) {
	if err := acct.Require(domain.FeatureMobileRecharge); err != nil {
		return RechargeProvider{}, err
	}
	offer, err := s.Processor.RechargeOffer(ctx, phone)
	if err != nil {
		return RechargeProvider{}, err
	}
	return RechargeProvider{Phone: phone.String(), Operator: offer.Operator, Amounts: offer.Amounts}, nil
}

// Create commits the recharge, the reserve of its amount (withdrawable
// money only, under the balance lock, as a PIX out) and its workflow
// intent in one database transaction, then starts the workflow. A retry
// (the same Idempotency-Key or externalReference) answers with the first
// recharge before anything is checked; the amount must be one the
// number's operator offers.
func (s *Recharges) Create(ctx context.Context, acct domain.Account, key domain.APIKey, in mobile.NewRecharge) (domain.Transaction, error) {
	if err := acct.Require(domain.FeatureMobileRecharge); err != nil {
		return domain.Transaction{}, err
	}
	id := newID("", acct.ID, "recharge", in.IdempotencyKey)
	if t, found, err := earlierMove(ctx, s.DB, acct.ID, id, in.IdempotencyKey, in.ExternalReference, domain.TypeMobileRecharge,
		func(t domain.Transaction) bool {
			return t.Amount == in.Amount && t.Details.V.Recharge != nil && t.Details.V.Recharge.Phone == in.Phone.String()
		}); found || err != nil {
		return t, err
	}
	offer, err := s.Processor.RechargeOffer(ctx, in.Phone)
	if err != nil {
		return domain.Transaction{}, err
	}
	if err := mobile.OfferedAmount(in.Amount, offer.Amounts); err != nil {
		return domain.Transaction{}, err
	}
	now := domain.NewTime(time.Now())
	t := domain.Transaction{
		ID: id, AccountID: acct.ID, APIKeyID: &key.ID, Type: domain.TypeMobileRecharge, Status: domain.StatusPending,
		Amount: in.Amount, NetAmount: in.Amount, Description: "Recarga " + offer.Operator + " " + in.Phone.String(),
		ExternalReference: in.ExternalReference, CreatedAt: now,
		Details: domain.SomeJSON(domain.Details{Recharge: &domain.RechargeBlock{Phone: in.Phone.String(), Operator: offer.Operator}}),
	}
	l := rechargeLaunch(t)
	err = db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		if err := activities.InsertRecharge(ctx, tx, t); err != nil {
			return err
		}
		return recordIntent(ctx, tx, l)
	})
	if err != nil {
		return domain.Transaction{}, err
	}
	launchCommitted(ctx, s.DB, s.Temporal, s.TaskQueue, l)
	return db.GetTransaction(ctx, s.DB, acct.ID, t.ID, domain.TypeMobileRecharge)
}

// Cancel cancels the account's recharge while canBeCancelled: the
// operator is asked first (it refuses one it delivered), then the record
// moves to CANCELED and its reserve returns exactly, under the row lock
// the delivery's step takes too, so a cancellation racing the delivery has
// one winner: the loser answers 400 (canBeCancelled false) or leaves the
// record as it is. The workflow is then told to end. A recharge cancelled
// already answers as it is (a retried cancel).
func (s *Recharges) Cancel(ctx context.Context, acct domain.Account, id string) (domain.Transaction, error) {
	if err := acct.Require(domain.FeatureMobileRecharge); err != nil {
		return domain.Transaction{}, err
	}
	t, err := db.GetTransaction(ctx, s.DB, acct.ID, id, domain.TypeMobileRecharge)
	if err != nil {
		return t, err
	}
	already, err := mobile.Cancellable(t)
	if err != nil {
		return domain.Transaction{}, err
	}
	if !already {
		err := s.Processor.CancelRecharge(ctx, t.ID)
		if errors.Is(err, processor.ErrAlreadyDelivered) {
			return domain.Transaction{}, mobile.Delivered(t.ID)
		}
		if err != nil {
			return domain.Transaction{}, err
		}
	}
	out, err := activities.CancelRecharge(ctx, &activities.Base{DB: s.DB}, t.ID)
	if err != nil {
		return domain.Transaction{}, err
	}
	n := processor.RechargeNotice{RechargeID: t.ID, Outcome: workflows.RechargeCanceled, At: time.Now().UTC()}
	err = signal(ctx, s.Temporal, workflows.RechargeWorkflowID(t.ID), workflows.NoticeSignal, n, "ended")
	if errors.Is(err, domain.ErrInvalid) { // the workflow has ended already
		err = nil
	}
	return out, err
}
