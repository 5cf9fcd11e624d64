package service

import (
	"context"
	"errors"

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

// simulated is the answer of a simulation that notified outcome about t.
func simulated(t domain.Transaction, outcome string, err error) (Simulated, error) {
	if err != nil {
		return Simulated{}, err
	}
	return Simulated{ID: t.ID, Outcome: outcome}, nil
}

func (s *Sandbox) charge(ctx context.Context, acct domain.Account, id string) (domain.Transaction, error) {
	return db.GetTransaction(ctx, s.DB, acct.ID, id, domain.TypePixIn)
}

func (s *Sandbox) transfer(ctx context.Context, acct domain.Account, id string) (domain.Transaction, error) {
	return db.GetTransaction(ctx, s.DB, acct.ID, id, domain.TypePixOut)
}

// deposit finds a refund's deposit by its id, its e2eId or the refundId.
func (s *Sandbox) deposit(ctx context.Context, acct domain.Account, ref string) (domain.Transaction, error) {
	return db.FindDeposit(ctx, s.DB, acct.ID, ref, false)
}

// Pay notifies that the account's charge was paid by payer (nil: the
// simulator's default payer). The sandbox plays the payer here, and a
// payer's bank refuses a QR that is no longer PENDING (expired, failed or
// paid): a 400 before any notice. (The processor's own notice for a charge
// that expired as it was paid is still booked: service.Inbox.ChargeNotice.)
func (s *Sandbox) Pay(ctx context.Context, acct domain.Account, id string, payer *domain.Party) (Simulated, error) {
	t, err := s.charge(ctx, acct, id)
	if err != nil {
		return Simulated{}, err
	}
	if t.Status != domain.StatusPending {
		return Simulated{}, domain.Invalidf("charge %s is %s: its QR can no longer be paid", t.ID, t.Status)
	}
	return simulated(t, processor.OutcomePaid, s.Simulator.Pay(ctx, t.ID, payer))
}

// FailCharge notifies that the account's charge failed.
func (s *Sandbox) FailCharge(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	t, err := s.charge(ctx, acct, id)
	if err != nil {
		return Simulated{}, err
	}
	return simulated(t, processor.OutcomeFailed, s.Simulator.FailCharge(ctx, t.ID))
}

// ExpireCharge notifies that the account's charge expired.
func (s *Sandbox) ExpireCharge(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	t, err := s.charge(ctx, acct, id)
	if err != nil {
		return Simulated{}, err
	}
	return simulated(t, processor.OutcomeExpired, s.Simulator.ExpireCharge(ctx, t.ID))
}

// SettleTransfer settles the account's PIX out to the key it was sent to.
func (s *Sandbox) SettleTransfer(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	t, err := s.transfer(ctx, acct, id)
	if err != nil {
		return Simulated{}, err
	}
	outcome, err := s.Simulator.SettleTransfer(ctx, t.ID, t.Details.V.PixKeyType, t.Details.V.PixKey)
	return simulated(t, outcome, err)
}

// FailTransfer notifies that the account's PIX out failed.
func (s *Sandbox) FailTransfer(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	t, err := s.transfer(ctx, acct, id)
	if err != nil {
		return Simulated{}, err
	}
	return simulated(t, processor.OutcomeFailed, s.Simulator.FailTransfer(ctx, t.ID))
}

// SettleRefund notifies that the refund of the account's deposit settled.
func (s *Sandbox) SettleRefund(ctx context.Context, acct domain.Account, ref string) (Simulated, error) {
	d, err := s.deposit(ctx, acct, ref)
	if err != nil {
		return Simulated{}, err
	}
	return simulated(d, processor.OutcomeSettled, s.Simulator.SettleRefund(ctx, d.ID))
}

// FailRefund notifies that the refund of the account's deposit failed.
func (s *Sandbox) FailRefund(ctx context.Context, acct domain.Account, ref string) (Simulated, error) {
	d, err := s.deposit(ctx, acct, ref)
	if err != nil {
		return Simulated{}, err
	}
	return simulated(d, processor.OutcomeFailed, s.Simulator.FailRefund(ctx, d.ID))
}

// Billings.

// PayBilling notifies that the account's billing was paid: a PIX billing
// through its charge (as a payer paying its QR), a boleto or card billing
// through the registrar's or acquirer's notice.
func (s *Sandbox) PayBilling(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	b, err := db.GetBilling(ctx, s.DB, acct.ID, id)
	if err != nil {
		return Simulated{}, err
	}
	if b.Method == domain.MethodPix && b.ChargeID != nil {
		err = s.Simulator.Pay(ctx, *b.ChargeID, nil)
	} else {
		err = s.Simulator.PayBilling(ctx, b.ID)
	}
	if errors.Is(err, processor.ErrBoletoVoided) {
		return Simulated{}, domain.Invalidf("billing %s is %s: its boleto was voided at the registrar, which refuses the payment", b.ID, b.Status)
	}
	if err != nil {
		return Simulated{}, err
	}
	return Simulated{ID: b.ID, Outcome: processor.OutcomePaid}, nil
}

// OverdueBilling notifies that the account's billing is past due now.
func (s *Sandbox) OverdueBilling(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	b, err := db.GetBilling(ctx, s.DB, acct.ID, id)
	if err != nil {
		return Simulated{}, err
	}
	if b.Method == domain.MethodPix && b.ChargeID != nil {
		// A PIX billing is past due when its charge expires.
		err = s.Simulator.ExpireCharge(ctx, *b.ChargeID)
	} else {
		err = s.Simulator.OverdueBilling(ctx, b.ID)
	}
	if err != nil {
		return Simulated{}, err
	}
	return Simulated{ID: b.ID, Outcome: processor.OutcomeOverdue}, nil
}
