package activities

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
)

//go:generate go tool mockgen -destination=activitiesmock/biller.go -package=activitiesmock . SubscriptionBiller

// SubscriptionBiller makes and cancels a subscription's billings through
// the billing use case (service.Subscriptions → service.Billings), so a
// cycle's billing is made exactly as POST /billings/create makes one: the
// same checks, fees and ids.
type SubscriptionBiller interface {
	// Bill makes cycle n's billing, under an id derived from the
	// subscription and n: called again for the same cycle, it answers with
	// the billing made the first time.
	Bill(ctx context.Context, s billing.Subscription, n int) (billingID string, err error)
	// CancelBilling cancels the billing if it is still pending; one paid,
	// overdue or already closed is left as it is.
	CancelBilling(ctx context.Context, s billing.Subscription, billingID string) error
}

// Subscriptions are the subscription workflow's activities.
type Subscriptions struct {
	Base
	Biller SubscriptionBiller
}

// CycleInput names one cycle of a subscription.
type CycleInput struct {
	SubscriptionID string
	Cycle          int
}

// RunSubscriptionCycle bills cycle in.Cycle and advances the subscription
// to the next one. It is idempotent: the billing's id is derived from the
// cycle (a retry finds it) and the row advances only from that cycle. A
// business refusal of the billing (the payer's card token gone, the
// account blocked) does not stop the subscription: the cycle is recorded
// with the reason in lastError and the next one is planned.
func (a *Subscriptions) RunSubscriptionCycle(ctx context.Context, in CycleInput) (billing.Subscription, error) {
	s, err := a.runCycle(ctx, in)
	return s.Referenced(), err // a step's result is in the workflow's history
}

func (a *Subscriptions) runCycle(ctx context.Context, in CycleInput) (billing.Subscription, error) {
	s, err := db.GetSubscription(ctx, a.DB, "", in.SubscriptionID)
	if err != nil || s.Status != billing.SubscriptionActive || s.NextCycle != in.Cycle {
		return s, err // canceled, or this cycle billed already
	}
	billingID, err := a.Biller.Bill(ctx, s, in.Cycle)
	refusal := ""
	var de *domain.Error
	switch {
	case errors.As(err, &de) && !errors.Is(err, domain.ErrUnavailable):
		refusal = de.Message
		slog.Warn("subscription cycle refused", "subscription", s.ID, "cycle", in.Cycle, "reason", refusal)
	case err != nil:
		return s, err // retried
	}
	s, _, err = runStep(ctx, a.DB, in.SubscriptionID, subscriptionRecords, func(_ *sqlx.Tx, s *billing.Subscription) (change, error) {
		if s.Status != billing.SubscriptionActive || s.NextCycle != in.Cycle {
			return change{}, nil
		}
		*s = s.Advanced(in.Cycle, billingID, refusal)
		return emit(), nil
	})
	return s, err
}

// CancelSubscription cancels the subscription for good and then cancels
// its pending billing: only the last cycle's billing can still be pending
// (an earlier one fell due before the last cycle billed). A retry finds
// the row canceled and retries only the billing's cancel, which is itself
// idempotent.
func (a *Subscriptions) CancelSubscription(ctx context.Context, id string) (billing.Subscription, error) {
	s, err := a.cancel(ctx, id)
	return s.Referenced(), err // a step's result is in the workflow's history
}

func (a *Subscriptions) cancel(ctx context.Context, id string) (billing.Subscription, error) {
	s, _, err := runStep(ctx, a.DB, id, subscriptionRecords, func(_ *sqlx.Tx, s *billing.Subscription) (change, error) {
		if s.Status == billing.SubscriptionCanceled {
			return change{}, nil
		}
		s.Status = billing.SubscriptionCanceled
		s.CanceledAt = domain.TimePtr(time.Now().Truncate(time.Millisecond)) // as stored
		return emit(), nil
	})
	if err != nil || s.LastBillingID == "" {
		return s, err
	}
	err = a.Biller.CancelBilling(ctx, s, s.LastBillingID)
	var de *domain.Error
	if errors.As(err, &de) && !errors.Is(err, domain.ErrUnavailable) {
		return s, nil // paid or closed meanwhile: it stays as it is
	}
	return s, err
}

// subscriptionRecords are the subscriptions' rows for a step: the row is
// the subscription's document, written whole; it has no events.
var subscriptionRecords = ownTable(db.LockSubscription, saved(db.SaveSubscription), nil)
