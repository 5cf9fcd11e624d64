// Package worker registers Jangada's workflows and activities on a Temporal
// worker, and prepares the namespace (custom search attributes) they use.
package worker

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// Deps are the activity implementations the worker hosts, one struct per
// product, and the processor adapter the app picked (typed to processor's
// interfaces: the worker names no adapter's package).
type Deps struct {
	Charges   *activities.Charges
	Transfers *activities.Transfers
	Refunds   *activities.Refunds
	Schedules *activities.Schedules
	// PixAutomatic are PIX automatic's activities.
	PixAutomatic *activities.PixAutomatic
	// Mobile recharge and crypto.
	Recharges *activities.Recharges
	Crypto    *activities.Crypto
	// MEDs are the MED dispute activities (issue 25).
	MEDs *activities.MEDs
	// Subscriptions are the subscription workflow's activities.
	Subscriptions *activities.Subscriptions
	// Bureau are the credit bureau's activities.
	Bureau *activities.Bureau
	// Webhooks are hosted by their own worker (NewWebhooks).
	Webhooks *activities.Webhooks
	// Processor is the processor adapter; when it implements
	// processor.Registrar (the sandbox's simulated network does) its own
	// workflows and activities are registered too. Nil hosts none.
	Processor processor.Processor

	// Billings.
	Billings *activities.Billings
	// FiscalInvoices are the fiscal invoice workflow's activities.
	FiscalInvoices *activities.FiscalInvoices
}

// StopTimeout bounds how long a stopping worker waits for its running activities.
const StopTimeout = 10 * time.Second

// New builds the money worker on taskQueue: every product's workflow and
// activities but webhook delivery.
func New(c client.Client, taskQueue string, d Deps) sdkworker.Worker {
	w := sdkworker.New(c, taskQueue, sdkworker.Options{
		// A graceful stop lets running activities finish (each is a short
		// database transaction) instead of abandoning them to their
		// StartToClose timeout.
		WorkerStopTimeout: StopTimeout,
	})
	Register(w, d)
	return w
}

// NewWebhooks builds the webhook delivery worker on its own task queue, with
// at most concurrency delivery attempts at once. Deliveries wait on
// merchants' receivers (up to the sender's timeout each); on their own queue
// and worker, receivers that hang can fill only this worker's slots, never
// delay a settlement, a transfer or a refund.
func NewWebhooks(c client.Client, taskQueue string, concurrency int, a *activities.Webhooks) sdkworker.Worker {
	w := sdkworker.New(c, taskQueue, sdkworker.Options{
		MaxConcurrentActivityExecutionSize:      concurrency,
		MaxConcurrentLocalActivityExecutionSize: concurrency,
		WorkerStopTimeout:                       StopTimeout,
	})
	RegisterWebhooks(w, a)
	return w
}

// Registry is a real worker or a test environment: the interface a
// processor adapter registers its own machinery on (processor.Registry).
type Registry = processor.Registry

// Register adds Jangada's workflows and activities to r: the one place
// where a product is registered. Workflows register under their function
// names and activity structs under their method names, which is how
// workflows call them (by Go reference, never by a string).
func Register(r Registry, d Deps) {
	for _, wf := range []any{
		workflows.ChargeWorkflow, workflows.TransferWorkflow, workflows.RefundWorkflow, workflows.ScheduleWorkflow,
		// Mobile recharge and crypto.
		workflows.RechargeWorkflow, workflows.CryptoDepositWorkflow, workflows.CryptoWithdrawalWorkflow,
	} {
		r.RegisterWorkflow(wf)
	}
	for _, a := range []any{d.Charges, d.Transfers, d.Refunds, d.Schedules,
		// Mobile recharge and crypto.
		d.Recharges, d.Crypto,
	} {
		if !reflect.ValueOf(a).IsNil() { // a test may host only some products
			r.RegisterActivity(a)
		}
	}
	// PIX automatic.
	r.RegisterWorkflow(workflows.AuthorizationWorkflow)
	if d.PixAutomatic != nil {
		r.RegisterActivity(d.PixAutomatic)
	}
	// Billings.
	r.RegisterWorkflow(workflows.BillingWorkflow)
	r.RegisterWorkflow(workflows.BillingRefundWorkflow)
	if d.Billings != nil {
		r.RegisterActivity(d.Billings)
	}
	// MED disputes (issue 25).
	r.RegisterWorkflow(workflows.MEDWorkflow)
	if d.MEDs != nil {
		r.RegisterActivity(d.MEDs)
	}
	// Subscriptions.
	r.RegisterWorkflow(workflows.SubscriptionWorkflow)
	if d.Subscriptions != nil {
		r.RegisterActivity(d.Subscriptions)
	}
	// Credit bureau.
	r.RegisterWorkflow(workflows.DunningWorkflow)
	if d.Bureau != nil {
		r.RegisterActivity(d.Bureau)
	}
	// Fiscal invoices.
	r.RegisterWorkflow(workflows.FiscalInvoiceWorkflow)
	if d.FiscalInvoices != nil {
		r.RegisterActivity(d.FiscalInvoices)
	}
	if adapter, ok := d.Processor.(processor.Registrar); ok {
		adapter.Register(r)
	}
}

// RegisterWebhooks adds webhook delivery to r (the webhook worker).
func RegisterWebhooks(r Registry, a *activities.Webhooks) {
	r.RegisterWorkflow(workflows.WebhookDeliveryWorkflow)
	r.RegisterActivity(a)
}

// EnsureSearchAttributes registers the custom search attributes on the
// namespace; attributes already present are left alone.
func EnsureSearchAttributes(ctx context.Context, c client.Client, namespace string) error {
	// Only the missing ones are added: asking for one that exists makes
	// the server log a warning per attribute, on every start.
	want := workflows.SearchAttributes()
	if have, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace}); err == nil {
		missing := map[string]enums.IndexedValueType{}
		for name, t := range want {
			if _, ok := have.GetCustomAttributes()[name]; !ok {
				missing[name] = t
			}
		}
		if len(missing) == 0 {
			return nil
		}
		want = missing
	}
	_, err := c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{
		Namespace:        namespace,
		SearchAttributes: want,
	})
	var exists *serviceerror.AlreadyExists
	if err == nil || errors.As(err, &exists) || strings.Contains(err.Error(), "already exists") {
		return nil
	}
	return fmt.Errorf("register search attributes: %w", err)
}
