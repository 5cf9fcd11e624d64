package activities

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/processor"
)

//go:generate go tool mockgen -destination=activitiesmock/instruction_maker.go -package=activitiesmock . InstructionMaker

// InstructionMaker makes a payment instruction of an authorization: the
// use case the API's create goes through too (service.PixAutomatic), so a
// cycle's instruction is made with the same checks and the same id
// (derived from the authorization and the cycle) whoever asks for it.
type InstructionMaker interface {
	MakeInstruction(ctx context.Context, authorizationID string, o pixauto.Order) (domain.Transaction, error)
}

// PixAutomatic are the PIX automatic workflow's activities: one workflow
// per authorization, the only writer of the authorization and of its
// instructions after the create.
type PixAutomatic struct {
	Base
	Processor processor.PixAutomatic
	Maker     InstructionMaker
}

// ActivateInput carries the payer's consent to ActivateAuthorization.
type ActivateInput struct {
	AuthorizationID string
	Notice          processor.AuthorizationNotice
}

// CloseInput closes an authorization as status (CANCELED, REJECTED or
// EXPIRED) with the reason shown on it.
type CloseInput struct {
	AuthorizationID string
	Status          string
	Reason          string
}

// MakeInstructionInput is one instruction the workflow makes.
type MakeInstructionInput struct {
	AuthorizationID string
	Order           pixauto.Order
}

// InstructionID is the id of an authorization's instruction for cycle
// (cycle -1: the first payment), so that a retried step finds it.
func InstructionID(authorizationID string, cycle int) string {
	if cycle < 0 {
		return domain.DerivedID("", "pix-automatic:"+authorizationID+":first")
	}
	return domain.DerivedID("", "pix-automatic:"+authorizationID+":cycle:"+itoa(cycle))
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}

// authorizationRecords are the authorizations' rows for a step: an
// authorization's step moves it (and its instructions, and the ledger, in
// the same transaction); it has no events.
var authorizationRecords = ownTable(db.LockAuthorization, saved(db.SaveAuthorization), nil)

// ActivateAuthorization records the payer's consent: PENDING → ACTIVE with
// the payer, and the first payment the consent QR carried recorded as a
// PAID instruction and credited (posting pix-automatic:<instruction>:settle).
// A consent paid before the authorization closed (its expiry or a cancel
// having run first) leaves it closed but still books its first payment,
// under the same id and key (the payer was debited): a late payment.
func (a *PixAutomatic) ActivateAuthorization(ctx context.Context, in ActivateInput) (pixauto.Authorization, error) {
	au, _, err := runStep(ctx, a.DB, in.AuthorizationID, authorizationRecords, func(tx *sqlx.Tx, au *pixauto.Authorization) (change, error) {
		at := in.Notice.At.UTC()
		if au.Status != pixauto.StatusPending {
			if !LateFirstPayment(*au, in.Notice) {
				return change{}, nil
			}
			paid := *au
			paid.Payer = in.Notice.Payer
			return emit(), bookFirstPayment(ctx, tx, au, paid, in.Notice.EndToEndID, at)
		}
		au.Status, au.Payer, au.ApprovedAt = pixauto.StatusActive, in.Notice.Payer, &at
		if au.FirstPaymentAmount <= 0 {
			return emit(), nil
		}
		return emit(), bookFirstPayment(ctx, tx, au, *au, in.Notice.EndToEndID, at)
	})
	return au, err
}

// LateFirstPayment reports whether n pays the first payment of au, closed
// since the payer paid it (n.At before au.ClosedAt) and not booked yet.
func LateFirstPayment(au pixauto.Authorization, n processor.AuthorizationNotice) bool {
	return au.Closed() && au.FirstPaymentAmount > 0 && au.FirstPaymentID == "" && au.ClosedAt != nil &&
		n.Outcome == processor.OutcomeApproved && n.EndToEndID != "" && !n.At.IsZero() && n.At.Before(*au.ClosedAt)
}

// bookFirstPayment records au's first payment as a PAID instruction paid
// by paid's payer and credits it.
func bookFirstPayment(ctx context.Context, tx *sqlx.Tx, au *pixauto.Authorization, paid pixauto.Authorization, e2e string, at time.Time) error {
	t := domain.Transaction{
		ID: InstructionID(au.ID, -1), AccountID: au.AccountID, APIKeyID: &au.APIKeyID, Type: domain.TypePixAutomatic,
		Status: pixauto.InstructionScheduled, Amount: au.FirstPaymentAmount, FeeAmount: au.FirstPaymentFee,
		NetAmount: au.FirstPaymentAmount - au.FirstPaymentFee, Description: au.Description, CreatedAt: domain.NewTime(at),
		Details: domain.SomeJSON(domain.Details{PixAutomatic: &domain.PixAutomaticDetails{
			AuthorizationID: au.ID, CustomerID: au.CustomerID, Cycle: -1, First: true, DueDate: string(pixauto.Today(at))}}),
	}
	au.FirstPaymentID = t.ID
	if err := credit(ctx, tx, &t, paid, e2e, at); err != nil {
		return err
	}
	_, err := db.InsertTransaction(ctx, tx, t)
	return err
}

// credit makes t PAID with the payer and endToEndId (the caller stores it)
// and posts its credit: gross from PIX clearing, the fee to revenue and the
// net to the merchant, locked 24 h like any PIX received (docs/ledger.md).
func credit(ctx context.Context, tx *sqlx.Tx, t *domain.Transaction, au pixauto.Authorization, e2e string, at time.Time) error {
	unlock := at.Add(domain.ReceivedLock)
	t.Status, t.CompletedAt = pixauto.InstructionPaid, domain.TimePtr(at)
	if e2e != "" {
		t.EndToEndID = &e2e
	}
	if au.Payer != nil {
		t.Payer = domain.SomeJSON(*au.Payer)
	}
	// The payer is the store's customer: its payment count and volume grow
	// with the credit, once (the step runs once under its row lock).
	if err := db.AddCustomerPayment(ctx, tx, au.CustomerID, t.Amount); err != nil {
		return err
	}
	_, err := db.Post(ctx, tx, pixAutomaticSettlePosting(*t, e2e, unlock))
	return err
}

// CloseAuthorization closes an open authorization (rejected, expired or
// canceled) and cancels, in the same transaction, its instructions not yet
// sent to the payer's institution; one already sent still settles. An
// authorization closed already is left as it is.
func (a *PixAutomatic) CloseAuthorization(ctx context.Context, in CloseInput) (pixauto.Authorization, error) {
	au, _, err := runStep(ctx, a.DB, in.AuthorizationID, authorizationRecords, func(tx *sqlx.Tx, au *pixauto.Authorization) (change, error) {
		if au.Closed() {
			return change{}, nil
		}
		now := time.Now().UTC()
		au.Status, au.StatusReason, au.ClosedAt = in.Status, in.Reason, &now
		open, err := db.OpenInstructions(ctx, tx, au.ID)
		if err != nil {
			return change{}, err
		}
		for _, o := range open {
			// Decided on the locked row: a debit sent since the read above
			// (ChargeInstruction) must settle, not be canceled.
			t, err := db.LockTransaction(ctx, tx, o.ID)
			if err != nil {
				return change{}, err
			}
			if d := t.Details.V.PixAutomatic; t.Status == pixauto.InstructionScheduled && d != nil && d.SubmittedAt == nil {
				t.Status, d.RetryDate = pixauto.InstructionCanceled, ""
				d.FailureReason = "authorization " + in.Status
				if _, err := db.UpdateTransaction(ctx, tx, t); err != nil {
					return change{}, err
				}
			}
		}
		return emit(), nil
	})
	return au, err
}

// MakeInstruction makes one instruction through the use case; a business
// refusal is not retried.
func (a *PixAutomatic) MakeInstruction(ctx context.Context, in MakeInstructionInput) (domain.Transaction, error) {
	t, err := a.Maker.MakeInstruction(ctx, in.AuthorizationID, in.Order)
	return t, BusinessError(err)
}

// CancelInstructionInput names an instruction of the authorization whose
// workflow cancels it.
type CancelInstructionInput struct {
	AuthorizationID string
	InstructionID   string
}

// CancelInstruction cancels a SCHEDULED instruction with no debit in
// flight (not yet sent, or waiting for the retry of a failed attempt; a
// 400 otherwise); one CANCELED already is answered
// as it is. An instruction of another authorization is not found: a
// workflow cancels only its own.
func (a *PixAutomatic) CancelInstruction(ctx context.Context, in CancelInstructionInput) (domain.Transaction, error) {
	t, err := a.transition(ctx, in.InstructionID, func(_ *sqlx.Tx, t *domain.Transaction) (change, error) {
		switch d := t.Details.V.PixAutomatic; {
		case t.Type != domain.TypePixAutomatic || d == nil || d.AuthorizationID != in.AuthorizationID:
			return change{}, domain.NotFound("payment instruction")
		case t.Status == pixauto.InstructionCanceled:
			return change{}, nil
		case t.Status != pixauto.InstructionScheduled:
			return change{}, domain.Invalidf("payment instruction %s is %s and can no longer be canceled", t.ID, t.Status)
		case d.SubmittedAt != nil:
			return change{}, domain.Invalidf("payment instruction %s is being debited and can no longer be canceled", t.ID)
		}
		// Between a failed attempt and its retry the instruction can be
		// canceled: no further attempt is sent.
		t.Status = pixauto.InstructionCanceled
		t.Details.V.PixAutomatic.RetryDate = ""
		t.Details.V.PixAutomatic.FailureReason = "canceled by the merchant"
		return emit(), nil
	})
	return t, BusinessError(err)
}
