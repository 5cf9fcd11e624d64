package sandbox

import (
	"context"
	"errors"
	"strconv"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// The simulated network keeps its promises durably: each auto-settlement is
// a small workflow of the sandbox's own (a timer, then one activity that
// notifies the Inbox), so that a worker restart loses no settlement, just as
// a real processor would still send its webhook. It belongs to the adapter,
// not to Jangada's workflows: removing the sandbox removes it.

// Kinds of delivery of the PIX products (each other product declares its
// own beside its simulation, with its onDelivery entry).
const (
	KindTransfer = "transfer"
	KindRefund   = "refund"
)

// A deliverer sends one kind's settlement notice to the Inbox.
type deliverer func(s *Sandbox, ctx context.Context, d Delivery) error

var deliverers = map[string]deliverer{}

// waitsForCancel are the kinds whose cancel waits for a running delivery
// to finish (onDeliveryWaited).
var waitsForCancel = map[string]bool{}

// onDelivery registers what a delivery of kind does when its timer fires;
// each product's simulation registers its kinds from its own file
// (TestEveryKindIsDelivered fails for a Kind constant without an entry).
func onDelivery(kind string, f deliverer) bool {
	if _, dup := deliverers[kind]; dup {
		panic("sandbox: delivery kind " + kind + " registered twice")
	}
	deliverers[kind] = f
	return true
}

// onDeliveryWaited is onDelivery for a kind whose cancel waits for a
// running delivery to finish, so the workflow's close tells the cancel
// truthfully whether the party delivered.
func onDeliveryWaited(kind string, f deliverer) bool {
	waitsForCancel[kind] = true
	return onDelivery(kind, f)
}

var _ = onDelivery(KindTransfer, func(s *Sandbox, ctx context.Context, d Delivery) error {
	_, err := s.SettleTransfer(ctx, d.ID, d.PixKeyType, d.PixKey)
	return err
})

var _ = onDelivery(KindRefund, func(s *Sandbox, ctx context.Context, d Delivery) error {
	return s.SettleRefund(ctx, d.ID)
})

// Delivery is a settlement the simulated network will notify.
type Delivery struct {
	Kind       string
	ID         string
	PixKey     string
	PixKeyType string
	After      time.Duration
	// Reason, when set, makes the delivery a failure (a PIX automatic debit).
	Reason string `json:",omitempty"`
	// Attempt is a PIX automatic debit's attempt (each has its delivery).
	Attempt int `json:",omitempty"`
	// Outcome is a card sale's answer (KindCard).
	Outcome string
	// Phone is a recharge's number.
	Phone string
}

// Network hosts the simulated network's activity.
type Network struct {
	Sandbox *Sandbox
}

// The worker registers the simulated network through processor.Registrar.
var _ processor.Registrar = (*Sandbox)(nil)

// Register adds the simulated network to a worker (processor.Registrar).
func (s *Sandbox) Register(r processor.Registry) {
	r.RegisterWorkflow(NetworkWorkflow)
	r.RegisterWorkflow(BoletoVoidWorkflow)
	r.RegisterActivity(&Network{Sandbox: s})
}

// later arms a delivery: one workflow per resource, so a retried submission
// arms it once.
func (s *Sandbox) later(ctx context.Context, d Delivery) error {
	return s.laterAfter(ctx, d, s.SettleAfter)
}

// laterAfter arms a delivery after the delay given.
func (s *Sandbox) laterAfter(ctx context.Context, d Delivery, after time.Duration) error {
	d.After = after
	id := "sandbox/" + d.Kind + "/" + d.ID
	if d.Attempt > 1 {
		id += "/" + strconv.Itoa(d.Attempt)
	}
	_, err := s.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: s.TaskQueue,
		WorkflowIDReusePolicy:                    enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		StaticSummary:                            "Sandbox network: settle " + d.Kind + " " + d.ID,
	}, NetworkWorkflow, d)
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &already) {
		return nil
	}
	return err
}

// NetworkWorkflow waits d.After, then tells the Inbox that the transfer or
// refund settled.
func NetworkWorkflow(ctx workflow.Context, d Delivery) error {
	if err := workflow.Sleep(ctx, d.After); err != nil {
		return err
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 30 * time.Second},
		WaitForCancellation: waitsForCancel[d.Kind],
	})
	var n *Network
	return workflow.ExecuteActivity(actx, n.DeliverSandboxNotice, d).Get(ctx, nil)
}

// DeliverSandboxNotice sends the settlement notice. A resource that has
// already concluded (settled or failed by hand) refuses it: that is the end
// of the delivery, not an error to retry.
func (a *Network) DeliverSandboxNotice(ctx context.Context, d Delivery) error {
	deliver, ok := deliverers[d.Kind]
	if !ok {
		// A kind this build does not know (a delivery armed by a newer
		// build) cannot be settled here; retrying would not change that.
		return temporal.NewNonRetryableApplicationError("unknown sandbox delivery kind "+d.Kind, "UnknownKind", nil)
	}
	err := deliver(a.Sandbox, ctx, d)
	if errors.Is(err, domain.ErrInvalid) {
		activity.GetLogger(ctx).Info("sandbox notice refused: already concluded", "kind", d.Kind, "id", d.ID)
		return nil
	}
	return err
}
