package activities

import (
	"context"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/workflows"
)

// Transfers implements the PIX out workflow's activities on top of the
// service's idempotent transitions.
type Transfers struct {
	Svc *service.Transfers
}

// EnsureTransfer writes the transfer if the API did not; returns its status.
func (a *Transfers) EnsureTransfer(ctx context.Context, t domain.Transaction) (string, error) {
	return a.Svc.Ensure(ctx, t)
}

// DecideTransfer records the operator's decision.
func (a *Transfers) DecideTransfer(ctx context.Context, in workflows.DecideInput) error {
	_, err := a.Svc.Decide(ctx, in.TransferID, in.Decision)
	return err
}

// SubmitTransfer hands the transfer to the processor.
func (a *Transfers) SubmitTransfer(ctx context.Context, id string) error {
	_, err := a.Svc.Submit(ctx, id)
	return err
}

// CompleteTransfer books the settlement; a notice without recipient data (a
// timer or an operator's signal) gets the sandbox network's description.
func (a *Transfers) CompleteTransfer(ctx context.Context, in workflows.CompleteInput) error {
	n := in.Notice
	if n.At.IsZero() {
		n.At = time.Now().UTC()
	}
	if n.Recipient == nil {
		t, err := a.Svc.Get(ctx, in.ID)
		if err != nil {
			return err
		}
		s := processor.Settlement(t.Details.V.PixKeyType, t.Details.V.PixKey, n.At)
		n.Recipient, n.EndToEndID = s.Recipient, s.EndToEndID
	}
	_, err := a.Svc.Complete(ctx, in.ID, n)
	return err
}

// FailTransfer returns the reserve.
func (a *Transfers) FailTransfer(ctx context.Context, in workflows.FailInput) error {
	_, err := a.Svc.Fail(ctx, in.ID, in.Reason)
	return err
}

// Refunds implements the refund workflow's activities.
type Refunds struct {
	Svc *service.Refunds
}

// EnsureRefund requests the refund if the API did not; returns its status.
func (a *Refunds) EnsureRefund(ctx context.Context, d domain.Transaction) (string, error) {
	return a.Svc.Ensure(ctx, d)
}

// SubmitRefund hands the refund to the processor.
func (a *Refunds) SubmitRefund(ctx context.Context, depositID string) error {
	_, err := a.Svc.Submit(ctx, depositID)
	return err
}

// CompleteRefund books the concluded refund.
func (a *Refunds) CompleteRefund(ctx context.Context, in workflows.CompleteInput) error {
	if in.Notice.At.IsZero() {
		in.Notice.At = time.Now().UTC()
	}
	_, err := a.Svc.Complete(ctx, in.ID, in.Notice)
	return err
}

// FailRefund returns the reserve.
func (a *Refunds) FailRefund(ctx context.Context, in workflows.FailInput) error {
	_, err := a.Svc.Fail(ctx, in.ID, in.Reason)
	return err
}
