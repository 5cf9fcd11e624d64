package activities

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/processor"
)

// A payment instruction's debits: each attempt (the first on the due
// date, then each retry of a failed one, docs/pix-automatic.md) is sent
// once (ChargeInstruction) and its outcome booked once (SettleInstruction),
// both keyed by the instruction and the attempt number.

// ChargeInput names the attempt of an instruction to send for debit.
type ChargeInput struct {
	InstructionID string
	// Attempt is the attempt's number: 1 on the due date, then 2, 3, 4
	// for the retries.
	Attempt int
}

// UnmarshalJSON also reads the bare instruction id that histories written
// before retries carry as the activity's input: their attempt 1.
func (c *ChargeInput) UnmarshalJSON(b []byte) error {
	var id string
	if json.Unmarshal(b, &id) == nil {
		*c = ChargeInput{InstructionID: id, Attempt: 1}
		return nil
	}
	type plain ChargeInput
	return json.Unmarshal(b, (*plain)(c))
}

// SettleInstructionInput books a debit's outcome.
type SettleInstructionInput struct {
	InstructionID string
	Notice        processor.InstructionNotice
	// NoRetry fails the instruction for good on a failure: the workflow
	// sets it for a debit whose outcome never came (the payer may have
	// been debited, so no other attempt is sent).
	NoRetry bool
}

// ChargeInstruction sends attempt in.Attempt of a SCHEDULED instruction to
// the payer's institution. It records the attempt first (from then on the
// instruction can no longer be canceled: a cancel running beside this
// activity, as the workflow's update does, is refused rather than leaving
// a debited payer and an uncredited merchant), then asks the processor
// (idempotent on the instruction and the attempt) and records its
// reference. A retry whose first run was answered sends nothing; an
// instruction no longer SCHEDULED, one with another attempt in flight, or
// an attempt whose turn it is not (a late run of an earlier one) is not
// sent.
func (a *PixAutomatic) ChargeInstruction(ctx context.Context, in ChargeInput) (domain.Transaction, error) {
	attempt := max(in.Attempt, 1)
	t, err := a.transition(ctx, in.InstructionID, func(_ *sqlx.Tx, t *domain.Transaction) (change, error) {
		d := t.Details.V.PixAutomatic
		if t.Status != pixauto.InstructionScheduled || d == nil || d.InFlight() != nil || len(d.Attempts) != attempt-1 {
			return change{}, nil
		}
		now := time.Now()
		d.SubmittedAt, d.RetryDate = domain.TimePtr(now), ""
		d.Attempts = append(d.Attempts, domain.PixAutomaticAttempt{Number: attempt, Date: string(pixauto.Today(now)),
			SubmittedAt: d.SubmittedAt, Status: domain.AttemptPending})
		return emit(), nil
	})
	if err != nil || t.Status != pixauto.InstructionScheduled || t.Details.V.PixAutomatic == nil {
		return t, err
	}
	d := t.Details.V.PixAutomatic
	if cur := d.InFlight(); cur == nil || cur.Number != attempt || sent(t, cur) {
		return t, nil
	}
	au, err := db.GetAuthorization(ctx, a.DB, "", d.AuthorizationID)
	if err != nil {
		return t, err
	}
	sub, err := a.Processor.DebitInstruction(ctx, processor.DebitRequest{ID: t.ID, AuthorizationID: au.ID,
		RecurrenceID: au.RecurrenceID, Amount: t.Amount, DueDate: d.DueDate, Attempt: attempt})
	if err != nil {
		return t, err
	}
	return a.transition(ctx, t.ID, func(_ *sqlx.Tx, t *domain.Transaction) (change, error) {
		cur := t.Details.V.PixAutomatic.InFlight()
		if cur == nil || cur.Number != attempt || sent(*t, cur) {
			return change{}, nil
		}
		cur.ReferenceID, t.ReferenceID = sub.ReferenceID, &sub.ReferenceID
		return emit(), nil
	})
}

// sent reports whether attempt cur was sent to the party already: its
// reference is recorded, or, for attempt 1 of a record sent before
// attempts were kept (rebuilt by InFlight without it), the record's.
func sent(t domain.Transaction, cur *domain.PixAutomaticAttempt) bool {
	return cur.ReferenceID != "" || (cur.Number == 1 && len(t.Details.V.PixAutomatic.Attempts) == 1 && t.ReferenceID != nil)
}

// SettleInstruction books the outcome of the attempt in flight of a
// SCHEDULED instruction: PAID and credited (pix-automatic:<id>:settle,
// posted once whichever attempt paid), or, on a failure, a retry on the
// day the rules allow (pixauto.Authorization.RetryDate; the instruction
// stays SCHEDULED with retryDate set and can be canceled until then) or
// FAILED with the reason when none is left, the authorization is closed
// or in.NoRetry is set (the attempt is then marked unanswered). A PAID
// notice of the unanswered attempt of a FAILED instruction is booked as
// a late payment: PAID and credited under the same key (the payer was
// debited). Any other outcome of an attempt not in flight (a late or
// repeated notice, one naming no attempt once a retry is out) and an
// instruction past SCHEDULED are left as they are.
func (a *PixAutomatic) SettleInstruction(ctx context.Context, in SettleInstructionInput) (domain.Transaction, error) {
	return a.transition(ctx, in.InstructionID, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		d := t.Details.V.PixAutomatic
		if d == nil {
			return change{}, nil
		}
		late := t.Status == pixauto.InstructionFailed && in.Notice.Outcome == processor.OutcomePaid
		if t.Status != pixauto.InstructionScheduled && !late {
			return change{}, nil
		}
		cur := d.InFlight()
		if late {
			cur = d.Unanswered()
		}
		if cur == nil || !cur.Named(in.Notice.Attempt, in.Notice.ReferenceID) {
			return change{}, nil
		}
		at := in.Notice.At.UTC()
		if at.IsZero() {
			at = time.Now().UTC()
		}
		au, err := db.GetAuthorization(ctx, tx, "", d.AuthorizationID)
		if err != nil {
			return change{}, err
		}
		cur.FinishedAt, d.SubmittedAt = domain.TimePtr(at), nil
		if in.Notice.Outcome == processor.OutcomePaid {
			cur.Status, cur.Reason = domain.AttemptPaid, ""
			if late {
				d.LatePayment, d.FailureReason = true, ""
			}
			return emit(), credit(ctx, tx, t, au, in.Notice.EndToEndID, at)
		}
		cur.Status, cur.Reason, d.FailureReason = domain.AttemptFailed, in.Notice.Reason, in.Notice.Reason
		cur.Unanswered = in.NoRetry
		if next, ok := au.RetryDate(d.Cycle, pixauto.Date(d.DueDate), len(d.Attempts), at); ok && !in.NoRetry && !au.Closed() {
			d.RetryDate = string(next)
			return emit(), nil
		}
		t.Status = pixauto.InstructionFailed
		return emit(), nil
	})
}
