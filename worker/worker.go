// Package worker registers Jangada's workflows and activities on a Temporal
// worker, and prepares the namespace (custom search attributes) they use.
package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/workflows"
)

// Deps are the activity implementations the worker hosts.
type Deps struct {
	Charges   *activities.Charges
	Transfers *activities.Transfers
	Refunds   *activities.Refunds
	Webhooks  *activities.Webhooks
	// Schedules hosts the scheduled-transfer activities.
	Schedules *activities.Schedules
}

// New builds a worker on taskQueue with every workflow and activity registered.
func New(c client.Client, taskQueue string, d Deps) sdkworker.Worker {
	w := sdkworker.New(c, taskQueue, sdkworker.Options{})
	Register(w, d)
	return w
}

// Register adds Jangada's workflows and activities to any registry (a real
// worker, or a test environment).
func Register(r interface {
	RegisterWorkflowWithOptions(any, workflow.RegisterOptions)
	RegisterActivityWithOptions(any, activity.RegisterOptions)
}, d Deps) {
	r.RegisterWorkflowWithOptions(workflows.ChargeWorkflow, workflow.RegisterOptions{Name: "ChargeWorkflow"})
	r.RegisterActivityWithOptions(d.Charges.EnsureCharge, activity.RegisterOptions{Name: workflows.ActEnsureCharge})
	r.RegisterActivityWithOptions(d.Charges.SettleCharge, activity.RegisterOptions{Name: workflows.ActSettleCharge})
	r.RegisterActivityWithOptions(d.Charges.FailCharge, activity.RegisterOptions{Name: workflows.ActFailCharge})
	r.RegisterActivityWithOptions(d.Charges.ExpireCharge, activity.RegisterOptions{Name: workflows.ActExpireCharge})

	r.RegisterWorkflowWithOptions(workflows.TransferWorkflow, workflow.RegisterOptions{Name: "TransferWorkflow"})
	r.RegisterActivityWithOptions(d.Transfers.EnsureTransfer, activity.RegisterOptions{Name: workflows.ActEnsureTransfer})
	r.RegisterActivityWithOptions(d.Transfers.DecideTransfer, activity.RegisterOptions{Name: workflows.ActDecideTransfer})
	r.RegisterActivityWithOptions(d.Transfers.SubmitTransfer, activity.RegisterOptions{Name: workflows.ActSubmitTransfer})
	r.RegisterActivityWithOptions(d.Transfers.CompleteTransfer, activity.RegisterOptions{Name: workflows.ActCompleteTransfer})
	r.RegisterActivityWithOptions(d.Transfers.FailTransfer, activity.RegisterOptions{Name: workflows.ActFailTransfer})

	r.RegisterWorkflowWithOptions(workflows.RefundWorkflow, workflow.RegisterOptions{Name: "RefundWorkflow"})
	r.RegisterActivityWithOptions(d.Refunds.EnsureRefund, activity.RegisterOptions{Name: workflows.ActEnsureRefund})
	r.RegisterActivityWithOptions(d.Refunds.SubmitRefund, activity.RegisterOptions{Name: workflows.ActSubmitRefund})
	r.RegisterActivityWithOptions(d.Refunds.CompleteRefund, activity.RegisterOptions{Name: workflows.ActCompleteRefund})
	r.RegisterActivityWithOptions(d.Refunds.FailRefund, activity.RegisterOptions{Name: workflows.ActFailRefund})

	r.RegisterWorkflowWithOptions(workflows.WebhookDeliveryWorkflow, workflow.RegisterOptions{Name: "WebhookDeliveryWorkflow"})
	r.RegisterActivityWithOptions(d.Webhooks.SendWebhook, activity.RegisterOptions{Name: workflows.ActSendWebhook})
	r.RegisterActivityWithOptions(d.Webhooks.RecordWebhookAttempt, activity.RegisterOptions{Name: workflows.ActRecordWebhookAttempt})

	if d.Schedules != nil {
		r.RegisterWorkflowWithOptions(workflows.ScheduleWorkflow, workflow.RegisterOptions{Name: "ScheduleWorkflow"})
		r.RegisterActivityWithOptions(d.Schedules.EnsureSchedule, activity.RegisterOptions{Name: workflows.ActEnsureSchedule})
		r.RegisterActivityWithOptions(d.Schedules.SaveSchedule, activity.RegisterOptions{Name: workflows.ActSaveSchedule})
		r.RegisterActivityWithOptions(d.Schedules.RunSchedule, activity.RegisterOptions{Name: workflows.ActRunSchedule})
		r.RegisterActivityWithOptions(d.Schedules.ScheduleBalance, activity.RegisterOptions{Name: workflows.ActScheduleBalance})
	}
}

// EnsureSearchAttributes registers the custom search attributes on the
// namespace; attributes already present are left alone.
func EnsureSearchAttributes(ctx context.Context, c client.Client, namespace string) error {
	_, err := c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{
		Namespace:        namespace,
		SearchAttributes: workflows.SearchAttributes(),
	})
	var exists *serviceerror.AlreadyExists
	if err == nil || errors.As(err, &exists) || strings.Contains(err.Error(), "already exists") {
		return nil
	}
	return fmt.Errorf("register search attributes: %w", err)
}
