package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/qr"
	"github.com/jangada/jangada/workflows"
)

// LaunchPixAutomatic is an authorization's workflow-start kind
// (workflow_launches.kind).
const LaunchPixAutomatic = "pix-automatic"

// The sweeper rebuilds an authorization's start from the stored one.
var _ = registerLaunch(LaunchPixAutomatic, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
	a, err := db.GetAuthorization(ctx, q, "", id)
	return authorizationLaunch(a), err
})

// authorizationLaunch is an authorization's workflow start, for its create
// and the sweeper.
func authorizationLaunch(a pixauto.Authorization) launch {
	return launch{LaunchPixAutomatic, a.ID, workflows.AuthorizationStart(a), workflows.AuthorizationWorkflow,
		workflows.AuthorizationInput{Authorization: a}}
}

// PixAutomatic is PIX automatic's use case: authorizations (the payer's
// consent, one workflow each) and their payment instructions, which the
// authorization's workflow makes through MakeInstruction, for the merchant
// (an update from CreateInstruction) and for itself (each cycle of a
// fixed amount).
type PixAutomatic struct {
	DB        *sqlx.DB
	Temporal  Temporal
	TaskQueue string
	Processor processor.PixAutomatic
	// Now is the clock of the checks (time.Now when nil); tests move it.
	Now func() time.Time
}

var _ activities.InstructionMaker = (*PixAutomatic)(nil)

func (s *PixAutomatic) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// CreateAuthorization checks the payer among the account's customers,
// prices the first payment, has the processor issue the consent QR, and
// commits the authorization with the intent to start its workflow, which
// then starts.
func (s *PixAutomatic) CreateAuthorization(ctx context.Context, acct domain.Account, key domain.APIKey, in pixauto.NewAuthorization) (pixauto.View, error) {
	if err := acct.Require(domain.FeaturePixAutomatic); err != nil {
		return pixauto.View{}, err
	}
	id := newID("", acct.ID, "pix-automatic", in.IdempotencyKey)
	// A retry answers with what its first attempt stored, before any check.
	if in.IdempotencyKey != "" {
		if a, err := db.GetAuthorization(ctx, s.DB, acct.ID, id); !errors.Is(err, domain.ErrNotFound) {
			if err == nil {
				err = ownsKey(ctx, a.CreatedAt)
			}
			return view(a, err)
		}
	}
	if _, err := db.GetCustomer(ctx, s.DB, acct.ID, in.CustomerID); errors.Is(err, domain.ErrNotFound) {
		return pixauto.View{}, domain.Invalid("customerId", "is not a customer of this account")
	} else if err != nil {
		return pixauto.View{}, err
	}
	var fee money.Cents
	if in.FirstPaymentAmount > 0 {
		if fee = acct.Fees.PixIn(in.FirstPaymentAmount); fee >= in.FirstPaymentAmount {
			return pixauto.View{}, domain.Invalid("firstPaymentAmount", "must be greater than the PIX fee of %s", fee)
		}
	}
	now := s.now().UTC()
	code, err := s.Processor.NewAuthorization(ctx, processor.AuthorizationRequest{ID: id, FirstPayment: in.FirstPaymentAmount,
		Description: in.Description, MerchantName: acct.Name, MerchantKey: acct.PixKey})
	if err != nil {
		return pixauto.View{}, fmt.Errorf("processor: %w", err)
	}
	a := pixauto.Authorization{
		ID: id, AccountID: acct.ID, APIKeyID: key.ID, CustomerID: in.CustomerID, Description: in.Description,
		Frequency: in.Frequency, FixedAmount: in.FixedAmount, MaxAmount: in.MaxAmount, StartDate: in.StartDate, EndDate: in.EndDate,
		FirstPaymentAmount: in.FirstPaymentAmount, FirstPaymentFee: fee, RecurrenceID: code.ReferenceID, CopyPaste: code.CopyPaste,
		Status: pixauto.StatusPending, ConsentExpiresAt: now.Add(pixauto.ConsentTTL), CreatedAt: now,
	}
	l := authorizationLaunch(a)
	var inserted bool
	err = db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		if inserted, err = db.InsertAuthorization(ctx, tx, a); err != nil || !inserted {
			return err
		}
		return recordIntent(ctx, tx, l)
	})
	if err != nil {
		return pixauto.View{}, err
	}
	if !inserted { // a concurrent attempt of the same request stored it
		return view(db.GetAuthorization(ctx, s.DB, acct.ID, id))
	}
	launchCommitted(ctx, s.DB, s.Temporal, s.TaskQueue, l)
	return view(a, nil)
}

// view is the API's view of an authorization, its QR image included while
// the consent is pending.
func view(a pixauto.Authorization, err error) (pixauto.View, error) {
	if err != nil {
		return pixauto.View{}, err
	}
	var img string
	if a.Status == pixauto.StatusPending && a.CopyPaste != "" {
		if img, err = qr.DataURI(a.CopyPaste); err != nil {
			return pixauto.View{}, err
		}
	}
	return a.Public(img), nil
}

// GetAuthorization returns one of the account's authorizations.
func (s *PixAutomatic) GetAuthorization(ctx context.Context, acct domain.Account, id string) (pixauto.View, error) {
	if err := acct.Require(domain.FeaturePixAutomatic); err != nil {
		return pixauto.View{}, err
	}
	return view(db.GetAuthorization(ctx, s.DB, acct.ID, id))
}

// ListAuthorizations returns a page of the account's authorizations.
func (s *PixAutomatic) ListAuthorizations(ctx context.Context, acct domain.Account, status string, page, pageSize int) ([]pixauto.View, int, error) {
	if err := acct.Require(domain.FeaturePixAutomatic); err != nil {
		return nil, 0, err
	}
	if status != "" && !slices.Contains(pixauto.AuthorizationStatuses, status) {
		return nil, 0, domain.Invalid("status", "must be one of %s", strings.Join(pixauto.AuthorizationStatuses, ", "))
	}
	rows, total, err := db.ListAuthorizations(ctx, s.DB, acct.ID, status, page, pageSize)
	if err != nil {
		return nil, 0, err
	}
	out := make([]pixauto.View, len(rows))
	for i, a := range rows {
		if out[i], err = view(a, nil); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// CancelAuthorization cancels one of the account's authorizations: its
// workflow closes it and cancels its instructions not yet sent.
func (s *PixAutomatic) CancelAuthorization(ctx context.Context, acct domain.Account, id string) (pixauto.View, error) {
	if err := acct.Require(domain.FeaturePixAutomatic); err != nil {
		return pixauto.View{}, err
	}
	a, err := db.GetAuthorization(ctx, s.DB, acct.ID, id)
	if err != nil {
		return pixauto.View{}, err
	}
	if a.Closed() {
		return pixauto.View{}, domain.Invalidf("authorization %s is %s and can no longer be canceled", a.ID, a.Status)
	}
	var out pixauto.Authorization
	if err := s.update(ctx, a.ID, workflows.PixAutoCancel, &out); err != nil {
		return pixauto.View{}, err
	}
	return view(out, nil)
}

// CreateInstruction schedules a payment instruction under one of the
// account's authorizations. Its id is derived from the authorization and
// the cycle its due date falls in (one instruction per cycle), so a retry
// finds what its first attempt made before any check; the authorization's
// workflow makes it (MakeInstruction) and charges it on its due date.
func (s *PixAutomatic) CreateInstruction(ctx context.Context, acct domain.Account, in pixauto.NewInstruction) (pixauto.Instruction, error) {
	if err := acct.Require(domain.FeaturePixAutomatic); err != nil {
		return pixauto.Instruction{}, err
	}
	a, err := db.GetAuthorization(ctx, s.DB, acct.ID, in.AuthorizationID)
	if err != nil {
		return pixauto.Instruction{}, err
	}
	cycle := pixauto.CycleOf(a.StartDate, a.Frequency, in.DueDate)
	var earlier *domain.Transaction
	if cycle >= 0 {
		t, err := db.GetTransaction(ctx, s.DB, acct.ID, activities.InstructionID(a.ID, cycle), domain.TypePixAutomatic)
		switch {
		case err == nil && t.Status != pixauto.InstructionCanceled && t.Amount == in.Amount && pixauto.InstructionOf(t).DueDate == in.DueDate:
			return pixauto.InstructionOf(t), nil // this request made it already
		case err == nil:
			earlier = &t
		case !errors.Is(err, domain.ErrNotFound):
			return pixauto.Instruction{}, err
		}
	}
	if _, err := a.Admit(in.Amount, in.DueDate, s.now()); err != nil {
		return pixauto.Instruction{}, err
	}
	if earlier != nil { // the cycle is taken by another instruction
		return sameInstruction(*earlier, in)
	}
	var t domain.Transaction
	err = s.update(ctx, a.ID, workflows.PixAutoSchedule, &t, pixauto.Order{Cycle: cycle, Amount: in.Amount, DueDate: in.DueDate})
	if err != nil {
		return pixauto.Instruction{}, err
	}
	return pixauto.InstructionOf(t), nil
}

// sameInstruction answers a create whose cycle has an instruction already:
// the same request again gets it, another one a 400 naming dueDate. A
// canceled instruction keeps its cycle (one instruction per cycle, its id
// derived from the cycle): the cycle is not charged again, and every
// create for it is a 400 naming dueDate.
func sameInstruction(t domain.Transaction, in pixauto.NewInstruction) (pixauto.Instruction, error) {
	v := pixauto.InstructionOf(t)
	if v.Status == pixauto.InstructionCanceled {
		return v, domain.Invalid("dueDate", "falls in cycle %d of the authorization, whose payment instruction %s was canceled: a canceled cycle is not charged again",
			v.Cycle, v.ID)
	}
	if v.Amount != in.Amount || v.DueDate != in.DueDate {
		return v, domain.Invalid("dueDate", "falls in cycle %d of the authorization, which has payment instruction %s (%s) already",
			v.Cycle, v.ID, v.Status)
	}
	return v, nil
}

// MakeInstruction makes the instruction of o.Cycle under the authorization
// (activities.InstructionMaker): under the authorization's row lock, it
// finds the cycle's instruction if one was made, else checks the order
// against the authorization (Admit), prices it with the account's PIX-in
// fee and writes it SCHEDULED.
func (s *PixAutomatic) MakeInstruction(ctx context.Context, authorizationID string, o pixauto.Order) (domain.Transaction, error) {
	var out domain.Transaction
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		a, err := db.LockAuthorization(ctx, tx, authorizationID)
		if err != nil {
			return err
		}
		id := activities.InstructionID(a.ID, o.Cycle)
		if t, err := db.TransactionByID(ctx, tx, id, domain.TypePixAutomatic); err == nil {
			out = t
			_, err := sameInstruction(t, pixauto.NewInstruction{Amount: o.Amount, DueDate: o.DueDate})
			return err
		} else if !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		cycle, err := a.Admit(o.Amount, o.DueDate, s.now())
		if err != nil {
			return err
		}
		if cycle != o.Cycle {
			return domain.Invalid("dueDate", "falls in cycle %d, not %d", cycle, o.Cycle)
		}
		acct, err := db.GetAccount(ctx, tx, a.AccountID)
		if err != nil {
			return err
		}
		fee := acct.Fees.PixIn(o.Amount)
		if fee >= o.Amount {
			return domain.Invalid("amount", "must be greater than the PIX fee of %s", fee)
		}
		out = domain.Transaction{
			ID: id, AccountID: a.AccountID, APIKeyID: &a.APIKeyID, Type: domain.TypePixAutomatic, Status: pixauto.InstructionScheduled,
			Amount: o.Amount, FeeAmount: fee, NetAmount: o.Amount - fee, Description: a.Description, CreatedAt: domain.NewTime(time.Now()),
			Details: domain.SomeJSON(domain.Details{PixAutomatic: &domain.PixAutomaticDetails{
				AuthorizationID: a.ID, CustomerID: a.CustomerID, Cycle: o.Cycle, DueDate: string(o.DueDate)}}),
		}
		_, err = db.InsertTransaction(ctx, tx, out)
		return err
	})
	return out, err
}

// GetInstruction returns one of the account's payment instructions.
func (s *PixAutomatic) GetInstruction(ctx context.Context, acct domain.Account, id string) (pixauto.Instruction, error) {
	if err := acct.Require(domain.FeaturePixAutomatic); err != nil {
		return pixauto.Instruction{}, err
	}
	t, err := db.GetTransaction(ctx, s.DB, acct.ID, id, domain.TypePixAutomatic)
	if err != nil {
		return pixauto.Instruction{}, domain.NotFound("payment instruction")
	}
	return pixauto.InstructionOf(t), nil
}

// ListInstructions returns a page of the account's payment instructions,
// optionally of one authorization and one status.
func (s *PixAutomatic) ListInstructions(ctx context.Context, acct domain.Account, authorizationID, status string, page, pageSize int) ([]pixauto.Instruction, int, error) {
	if err := acct.Require(domain.FeaturePixAutomatic); err != nil {
		return nil, 0, err
	}
	if status != "" && !slices.Contains(pixauto.InstructionStatuses, status) {
		return nil, 0, domain.Invalid("status", "must be one of %s", strings.Join(pixauto.InstructionStatuses, ", "))
	}
	rows, total, err := db.ListInstructions(ctx, s.DB, acct.ID, authorizationID, status, page, pageSize)
	if err != nil {
		return nil, 0, err
	}
	out := make([]pixauto.Instruction, len(rows))
	for i, t := range rows {
		out[i] = pixauto.InstructionOf(t)
	}
	return out, total, nil
}

// CancelInstruction cancels one of the account's instructions before it is
// sent to the payer's institution on its due date.
func (s *PixAutomatic) CancelInstruction(ctx context.Context, acct domain.Account, id string) (pixauto.Instruction, error) {
	v, err := s.GetInstruction(ctx, acct, id)
	if err != nil {
		return v, err
	}
	if v.Status != pixauto.InstructionScheduled {
		return v, domain.Invalidf("payment instruction %s is %s and can no longer be canceled", v.ID, v.Status)
	}
	var t domain.Transaction
	if err := s.update(ctx, v.AuthorizationID, workflows.PixAutoCancelInstruction, &t, v.ID); err != nil {
		return pixauto.Instruction{}, err
	}
	return pixauto.InstructionOf(t), nil
}

// update sends an update to the authorization's workflow and waits for its
// answer (the service's update); the target goes last
// (workflows.PixAutoTarget).
func (s *PixAutomatic) update(ctx context.Context, id, name string, out any, args ...any) error {
	args = append(args, workflows.PixAutoTarget{AuthorizationID: id})
	return update(ctx, s.Temporal, workflows.AuthorizationWorkflowID(id), name, out, args...)
}
