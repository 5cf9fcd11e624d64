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

// Deps are what the money worker hosts beside the workflows (which each
// product's file hosts: workflows.Hosted): one activity struct per product,
// and the processor adapter the app picked (typed to processor's
// interfaces: the worker names no adapter's package).
type Deps struct {
	// Activities are the products' activity structs; a nil one (a test
	// hosting only some products) is skipped.
	Activities []any
	// Processor is the processor adapter; when it implements
	// processor.Registrar (the sandbox's simulated network does) its own
	// workflows and activities are registered too. Nil hosts none.
	Processor processor.Processor
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
	for _, wf := range workflows.Hosted() {
		r.RegisterWorkflow(wf)
	}
	for _, a := range d.Activities {
		if a != nil && !reflect.ValueOf(a).IsNil() {
			r.RegisterActivity(a)
		}
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
