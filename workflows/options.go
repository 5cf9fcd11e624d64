package workflows

import (
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/money"
)

// Start describes how a workflow is started and found: its id (derived from
// the resource, so any process can reach it and a duplicate start is
// refused), the search attributes and memo ops filter on in the Temporal UI,
// and the summary shown there. Each product's file has a constructor
// (ChargeStart, TransferStart, …); Options is the one place that turns it
// into StartWorkflowOptions.
type Start struct {
	ID           string
	AccountID    string
	ResourceID   string
	ResourceType string
	// OwnerID is the resource this one acts on, if any (a billing refund's
	// billing): a search attribute, and part of its Identity.
	OwnerID string
	Status  string
	// Amount is shown and searchable when positive.
	Amount  money.Cents
	Summary string
	Details string
	Memo    map[string]any
	// Eager asks for the first workflow task in the start response (a worker
	// in the same process saves a matching round trip; elsewhere ignored).
	Eager bool
	// Delay defers the first workflow task (StartWorkflowOptions.StartDelay):
	// the start is one write to Temporal and nothing runs until the delay
	// ends or a Signal-With-Start arrives (a plain signal waits for the
	// delay). Positive delays turn Eager off: Temporal refuses both at once.
	Delay time.Duration
}

// Identity is whose the workflow s starts is (see IdentityOf).
func (s Start) Identity() Identity {
	return Identity{Account: s.AccountID, Resource: s.ResourceID, Type: s.ResourceType, Owner: s.OwnerID}
}

// Options are the StartWorkflowOptions of s on taskQueue. A second start
// under the same id fails with WorkflowExecutionAlreadyStarted.
func (s Start) Options(taskQueue string) client.StartWorkflowOptions {
	attrs := []temporal.SearchAttributeUpdate{
		AccountIDKey.ValueSet(s.AccountID), ResourceIDKey.ValueSet(s.ResourceID),
		ResourceTypeKey.ValueSet(s.ResourceType), StatusKey.ValueSet(s.Status),
	}
	if s.Amount > 0 {
		attrs = append(attrs, AmountKey.ValueSet(float64(s.Amount)/100))
	}
	if s.OwnerID != "" {
		attrs = append(attrs, OwnerIDKey.ValueSet(s.OwnerID))
	}
	memo := map[string]any{"accountId": s.AccountID}
	for k, v := range s.Memo {
		memo[k] = v
	}
	return client.StartWorkflowOptions{
		ID: s.ID, TaskQueue: taskQueue,
		TypedSearchAttributes:                    temporal.NewSearchAttributes(attrs...),
		StaticSummary:                            s.Summary,
		StaticDetails:                            s.Details,
		Memo:                                     memo,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		WorkflowIDReusePolicy:                    enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		EnableEagerStart:                         s.Eager && s.Delay <= 0,
		StartDelay:                               max(s.Delay, 0),
	}
}

// ChildOptions are the options of s started by another workflow as an
// abandoned child (a charge's fiscal invoice): the same id, search
// attributes, memo and summary as Options, on the parent's task queue; it
// outlives its parent, and a second start under the id fails.
func (s Start) ChildOptions() workflow.ChildWorkflowOptions {
	o := s.Options("")
	return workflow.ChildWorkflowOptions{
		WorkflowID: o.ID, TypedSearchAttributes: o.TypedSearchAttributes, Memo: o.Memo,
		StaticSummary: o.StaticSummary, StaticDetails: o.StaticDetails,
		ParentClosePolicy:     enums.PARENT_CLOSE_POLICY_ABANDON,
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}
}

// MoneyActivityTimeout bounds one attempt of a money-moving activity (a
// short database transaction, or one call to the processor). It is also
// how long an attempt picked up by a worker that then died waits before
// Temporal retries it elsewhere, so it is kept short.
const MoneyActivityTimeout = 10 * time.Second

// moneyActivities are the options of every money-moving activity: retried
// until the database answers, because the money must eventually move.
func moneyActivities(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: MoneyActivityTimeout,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})
}

// retryForever bounds retries that must not end: ten years.
const retryForever = 10 * 365 * 24 * time.Hour

// ensureActivity runs a workflow's first step, the record-writing safety net
// for an API that died between starting the workflow and committing, as a
// local activity (no extra round trip through the server). It never gives
// up: a workflow that owns money retries its first step until the database
// is back, however long the outage (backing off to one attempt a minute).
func ensureActivity(ctx workflow.Context, activity, arg, result any) error {
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		// A local activity's ScheduleToClose defaults to its StartToClose,
		// which would end the retries after one attempt: it must be set.
		ScheduleToCloseTimeout: retryForever,
		StartToCloseTimeout:    10 * time.Second,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})
	return workflow.ExecuteLocalActivity(lctx, activity, arg).Get(ctx, result)
}

// moneyStep runs one money-moving activity of a workflow. A local activity
// (local true) runs inside the workflow task that decided it: no
// scheduling, dispatch and completion round trips through Temporal, which
// on a store that serialises writes is most of a payment's cost. It
// retries like moneyActivities, without end, and is as idempotent as the
// activity is (a retried workflow task runs it again; its ledger key posts
// once). local false is the activity of histories recorded before.
func moneyStep(ctx workflow.Context, local bool, activity, arg, result any) error {
	if !local {
		return workflow.ExecuteActivity(moneyActivities(ctx), activity, arg).Get(ctx, result)
	}
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: retryForever,
		StartToCloseTimeout:    MoneyActivityTimeout,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})
	return workflow.ExecuteLocalActivity(lctx, activity, arg).Get(ctx, result)
}

// setStatus records the resource's new status on the workflow, for ops'
// searches.
func setStatus(ctx workflow.Context, status string) error {
	return workflow.UpsertTypedSearchAttributes(ctx, StatusKey.ValueSet(status))
}

// receiveNow takes the first value already buffered on the signal channel
// name that accept takes, without waiting; values it refuses are dropped.
func receiveNow[T any](ctx workflow.Context, name string, accept func(T) bool) (T, bool) {
	ch := workflow.GetSignalChannel(ctx, name)
	for {
		var v T
		if !ch.ReceiveAsync(&v) {
			var zero T
			return zero, false
		}
		if accept(v) {
			return v, true
		}
		workflow.GetLogger(ctx).Warn("ignoring signal value", "signal", name)
	}
}

// awaitSignal waits for the first value on the signal channel name that
// accept takes, or for timeout (when positive), whichever comes first; it
// reports whether a value was taken. Values accept refuses, and values
// that cannot be decoded, are ignored, so a mistyped or forged signal
// changes nothing and the timeout still holds.
func awaitSignal[T any](ctx workflow.Context, name string, timeout time.Duration, accept func(T) bool) (T, bool) {
	ch := workflow.GetSignalChannel(ctx, name)
	tctx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	var timer workflow.Future
	if timeout > 0 {
		timer = workflow.NewTimer(tctx, timeout)
	}
	var got T
	done, taken := false, false
	for !done {
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(ch, func(c workflow.ReceiveChannel, _ bool) {
			// ReceiveAsync, not Receive: the SDK drops a value it cannot
			// decode (a forged payload the codec refuses, a mistyped one),
			// and Receive would then block here, inside the callback, for
			// the next value — past the timer, wedging the wait for good.
			var v T
			if !c.ReceiveAsync(&v) {
				return
			}
			if accept(v) {
				got, done, taken = v, true, true
			} else {
				workflow.GetLogger(ctx).Warn("ignoring signal value", "signal", name)
			}
		})
		if timer != nil {
			sel.AddFuture(timer, func(workflow.Future) { done = true })
		}
		sel.Select(ctx)
	}
	return got, taken
}
