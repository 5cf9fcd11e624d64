package workflows

import (
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/pixauto"
)

// The PIX automatic workflow's updates: the merchant's requests, queued
// for the main loop (AuthorizationWorkflow), which alone does I/O.

// pixRequest is an update waiting for the main loop, which alone does I/O.
type pixRequest struct {
	name  string
	order pixauto.Order
	id    string
	done  bool
	out   any
	err   error
}

func (w *recurrence) register(ctx workflow.Context) error {
	open := func(t PixAutoTarget) error {
		if t.AuthorizationID != w.a.ID {
			return temporal.NewNonRetryableApplicationError("the update names authorization \""+t.AuthorizationID+"\", not "+w.a.ID, "WrongAuthorization", nil)
		}
		if w.a.Closed() {
			return temporal.NewNonRetryableApplicationError("authorization "+w.a.ID+" is "+w.a.Status, activities.ErrTypeInvalid, nil)
		}
		return nil
	}
	enqueue := func(ctx workflow.Context, r *pixRequest) error {
		w.queue = append(w.queue, r)
		return workflow.Await(ctx, func() bool { return r.done })
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, PixAutoSchedule,
		func(ctx workflow.Context, o pixauto.Order, _ PixAutoTarget) (domain.Transaction, error) {
			r := &pixRequest{name: PixAutoSchedule, order: o}
			if err := enqueue(ctx, r); err != nil {
				return domain.Transaction{}, err
			}
			t, _ := r.out.(domain.Transaction)
			return t, r.err
		}, workflow.UpdateHandlerOptions{Validator: func(_ workflow.Context, _ pixauto.Order, t PixAutoTarget) error { return open(t) }}); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, PixAutoCancelInstruction,
		func(ctx workflow.Context, id string, _ PixAutoTarget) (domain.Transaction, error) {
			r := &pixRequest{name: PixAutoCancelInstruction, id: id}
			if err := enqueue(ctx, r); err != nil {
				return domain.Transaction{}, err
			}
			t, _ := r.out.(domain.Transaction)
			return t, r.err
		}, workflow.UpdateHandlerOptions{Validator: func(_ workflow.Context, _ string, t PixAutoTarget) error {
			if t.AuthorizationID != w.a.ID {
				return open(t)
			}
			return nil // an instruction of a closed authorization is canceled already: the activity answers it
		}}); err != nil {
		return err
	}
	return workflow.SetUpdateHandlerWithOptions(ctx, PixAutoCancel,
		func(ctx workflow.Context, _ PixAutoTarget) (pixauto.Authorization, error) {
			r := &pixRequest{name: PixAutoCancel}
			if err := enqueue(ctx, r); err != nil {
				return pixauto.Authorization{}, err
			}
			a, _ := r.out.(pixauto.Authorization)
			return a, r.err
		}, workflow.UpdateHandlerOptions{Validator: func(_ workflow.Context, t PixAutoTarget) error { return open(t) }})
}

// handle applies one update in the main loop.
func (w *recurrence) handle(ctx workflow.Context, r *pixRequest) (any, error) {
	switch r.name {
	case PixAutoCancel:
		if w.a.Closed() {
			return w.a, temporal.NewNonRetryableApplicationError("authorization "+w.a.ID+" is "+w.a.Status, activities.ErrTypeInvalid, nil)
		}
		return w.a, w.close(ctx, pixauto.StatusCanceled, "canceled by the merchant")
	case PixAutoCancelInstruction:
		var t domain.Transaction
		err := workflow.ExecuteActivity(moneyActivities(ctx), pa.CancelInstruction,
			activities.CancelInstructionInput{AuthorizationID: w.a.ID, InstructionID: r.id}).Get(ctx, &t)
		if err != nil {
			return t, refusal(err)
		}
		w.forget(t)
		return t, nil
	default:
		if w.a.Status != pixauto.StatusActive {
			return nil, temporal.NewNonRetryableApplicationError("authorizationId names an authorization that is "+w.a.Status+", not ACTIVE",
				activities.ErrTypeInvalid, nil)
		}
		t, err := w.make(ctx, r.order)
		if err != nil {
			return t, refusal(err)
		}
		return t, nil
	}
}
