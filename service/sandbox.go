package service

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// Sandbox is the use case of the sandbox routes: each finds the caller's
// resource (another account's id is simply not found) and asks the
// adapter's simulator to send the notice a real processor would.
type Sandbox struct {
	DB        *sqlx.DB
	Simulator processor.Simulator
}

// Simulated is what a simulation did: the resource it acted on and the
// outcome it notified.
type Simulated struct {
	ID      string
	Outcome string
}

// simulate loads the resource with find and runs act on it, which answers
// the outcome it notified.
func simulate(ctx context.Context, find func() (domain.Transaction, error), act func(t domain.Transaction) (string, error)) (Simulated, error) {
	t, err := find()
	if err != nil {
		return Simulated{}, err
	}
	outcome, err := act(t)
	if err != nil {
		return Simulated{}, err
	}
	return Simulated{ID: t.ID, Outcome: outcome}, nil
}

// as gives a simulation that returns only an error its outcome.
func as(outcome string, err error) (string, error) { return outcome, err }

func (s *Sandbox) charge(ctx context.Context, acct domain.Account, id string) func() (domain.Transaction, error) {
	return func() (domain.Transaction, error) { return db.GetTransaction(ctx, s.DB, acct.ID, id, domain.TypePixIn) }
}

func (s *Sandbox) transfer(ctx context.Context, acct domain.Account, id string) func() (domain.Transaction, error) {
	return func() (domain.Transaction, error) {
		return db.GetTransaction(ctx, s.DB, acct.ID, id, domain.TypePixOut)
	}
}

// deposit finds a refund's deposit by its id, its e2eId or the refundId.
func (s *Sandbox) deposit(ctx context.Context, acct domain.Account, ref string) func() (domain.Transaction, error) {
	return func() (domain.Transaction, error) { return db.FindDeposit(ctx, s.DB, acct.ID, ref, false) }
}

// Pay notifies that the account's charge was paid by payer (nil: the
// simulator's default payer).
func (s *Sandbox) Pay(ctx context.Context, acct domain.Account, id string, payer *domain.Party) (Simulated, error) {
	return simulate(ctx, s.charge(ctx, acct, id), func(t domain.Transaction) (string, error) {
		return as(processor.OutcomePaid, s.Simulator.Pay(ctx, t.ID, payer))
	})
}

// FailCharge notifies that the account's charge failed.
func (s *Sandbox) FailCharge(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	return simulate(ctx, s.charge(ctx, acct, id), func(t domain.Transaction) (string, error) {
		return as(processor.OutcomeFailed, s.Simulator.FailCharge(ctx, t.ID))
	})
}

// ExpireCharge notifies that the account's charge expired.
func (s *Sandbox) ExpireCharge(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	return simulate(ctx, s.charge(ctx, acct, id), func(t domain.Transaction) (string, error) {
		return as(processor.OutcomeExpired, s.Simulator.ExpireCharge(ctx, t.ID))
	})
}

// SettleTransfer settles the account's PIX out to the key it was sent to.
func (s *Sandbox) SettleTransfer(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	return simulate(ctx, s.transfer(ctx, acct, id), func(t domain.Transaction) (string, error) {
		return s.Simulator.SettleTransfer(ctx, t.ID, t.Details.V.PixKeyType, t.Details.V.PixKey)
	})
}

// FailTransfer notifies that the account's PIX out failed.
func (s *Sandbox) FailTransfer(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	return simulate(ctx, s.transfer(ctx, acct, id), func(t domain.Transaction) (string, error) {
		return as(processor.OutcomeFailed, s.Simulator.FailTransfer(ctx, t.ID))
	})
}

// SettleRefund notifies that the refund of the account's deposit settled.
func (s *Sandbox) SettleRefund(ctx context.Context, acct domain.Account, ref string) (Simulated, error) {
	return simulate(ctx, s.deposit(ctx, acct, ref), func(d domain.Transaction) (string, error) {
		return as(processor.OutcomeSettled, s.Simulator.SettleRefund(ctx, d.ID))
	})
}

// FailRefund notifies that the refund of the account's deposit failed.
func (s *Sandbox) FailRefund(ctx context.Context, acct domain.Account, ref string) (Simulated, error) {
	return simulate(ctx, s.deposit(ctx, acct, ref), func(d domain.Transaction) (string, error) {
		return as(processor.OutcomeFailed, s.Simulator.FailRefund(ctx, d.ID))
	})
}
