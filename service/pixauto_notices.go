package service

import (
	"context"
	"fmt"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// PIX automatic's notices (processor.Inbox) and sandbox simulations.

// AuthorizationNotice forwards the payer's answer to a PENDING
// authorization's workflow (Signal-With-Start: a create whose start the
// sweeper has not redone yet still hears it). The first payment of a
// consent paid before the authorization closed is booked as a late payment
// (bookLateFirstPayment); any other notice of a closed one is refused.
func (s *Inbox) AuthorizationNotice(ctx context.Context, authorizationID string, n processor.AuthorizationNotice) error {
	a, err := db.GetAuthorization(ctx, s.DB, "", authorizationID)
	if err != nil {
		return err
	}
	n.AuthorizationID = a.ID // the workflow ignores a notice naming another
	if activities.LateFirstPayment(a, n) {
		return s.bookLateFirstPayment(ctx, a, n)
	}
	if a.Status != pixauto.StatusPending {
		return domain.Invalidf("authorization %s is %s, not PENDING", a.ID, a.Status)
	}
	return signalWithStart(ctx, s.Temporal, s.TaskQueue, authorizationLaunch(a), workflows.AuthorizationSignal, n,
		fmt.Sprintf("authorization %s is no longer PENDING", a.ID))
}

// bookLateFirstPayment books, in the database, the first payment of a
// consent the payer paid before the authorization closed (its expiry or a
// cancel ran first), whether or not the workflow still runs: the payer was
// debited (activities.ActivateAuthorization, same key as on activation).
func (s *Inbox) bookLateFirstPayment(ctx context.Context, a pixauto.Authorization, n processor.AuthorizationNotice) error {
	acts := &activities.PixAutomatic{Base: s.base()}
	_, err := acts.ActivateAuthorization(ctx, activities.ActivateInput{AuthorizationID: a.ID, Notice: n})
	return err
}

// InstructionNotice forwards a debit's outcome to the workflow of the
// instruction's authorization. An instruction with no debit in flight (not
// yet sent, or waiting for a retry) refuses it: no attempt of it is out;
// so does one naming another attempt than the one in flight (naming none
// is taken for attempt 1 only, domain.PixAutomaticAttempt.Named). A
// payment of the unanswered attempt of an instruction FAILED because that
// debit's outcome never came is booked here, in the database, as a late
// payment (the payer was debited), whether or not the workflow still runs.
func (s *Inbox) InstructionNotice(ctx context.Context, instructionID string, n processor.InstructionNotice) error {
	t, err := db.TransactionByID(ctx, s.DB, instructionID, domain.TypePixAutomatic)
	if err != nil {
		return err
	}
	d := t.Details.V.PixAutomatic
	n.InstructionID = t.ID
	if d != nil && t.Status == pixauto.InstructionFailed && n.Outcome == processor.OutcomePaid {
		if u := d.Unanswered(); u != nil && u.Named(n.Attempt, n.ReferenceID) {
			acts := &activities.PixAutomatic{Base: s.base()}
			_, err := acts.SettleInstruction(ctx, activities.SettleInstructionInput{InstructionID: t.ID, Notice: n})
			return err
		}
	}
	if t.Status != pixauto.InstructionScheduled || d == nil {
		return domain.Invalidf("payment instruction %s is %s, not SCHEDULED", t.ID, t.Status)
	}
	if cur := d.InFlight(); cur == nil || !cur.Named(n.Attempt, n.ReferenceID) {
		return domain.Invalidf("payment instruction %s has no debit attempt %d in flight", t.ID, n.Attempt)
	}
	return signal(ctx, s.Temporal, workflows.AuthorizationWorkflowID(d.AuthorizationID), workflows.InstructionSignal, n,
		fmt.Sprintf("the authorization of payment instruction %s is closed", t.ID))
}

// ApproveAuthorization has the payer consent to one of the account's
// authorizations (paying the first payment its QR carries).
func (s *Sandbox) ApproveAuthorization(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	if err := acct.Require(domain.FeaturePixAutomatic); err != nil {
		return Simulated{}, err
	}
	a, err := db.GetAuthorization(ctx, s.DB, acct.ID, id)
	if err != nil {
		return Simulated{}, err
	}
	if err := s.Simulator.ApproveAuthorization(ctx, a.ID, a.FirstPaymentAmount > 0); err != nil {
		return Simulated{}, err
	}
	return Simulated{ID: a.ID, Outcome: processor.OutcomeApproved}, nil
}

// RejectAuthorization has the payer refuse one of the account's authorizations.
func (s *Sandbox) RejectAuthorization(ctx context.Context, acct domain.Account, id string) (Simulated, error) {
	if err := acct.Require(domain.FeaturePixAutomatic); err != nil {
		return Simulated{}, err
	}
	a, err := db.GetAuthorization(ctx, s.DB, acct.ID, id)
	if err != nil {
		return Simulated{}, err
	}
	if err := s.Simulator.RejectAuthorization(ctx, a.ID); err != nil {
		return Simulated{}, err
	}
	return Simulated{ID: a.ID, Outcome: processor.OutcomeRejected}, nil
}
