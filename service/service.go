// Package service holds Jangada's use cases: what a handler calls once it
// has a validated request. A use case writes the resource's first records
// (through the same function its workflow's first activity uses), starts or
// signals the resource's workflow, and answers. It is the one home of the
// steps between HTTP and Temporal; the workflow's later steps live in
// package activities.
package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/workflows"
)

//go:generate go tool mockgen -destination=servicemock/temporal.go -package=servicemock . Temporal

// Temporal is the part of the Temporal client the use cases call (a
// client.Client satisfies it; tests use a generated mock).
type Temporal interface {
	ExecuteWorkflow(ctx context.Context, options client.StartWorkflowOptions, workflow any, args ...any) (client.WorkflowRun, error)
	SignalWorkflow(ctx context.Context, workflowID, runID, signalName string, arg any) error
	SignalWithStartWorkflow(ctx context.Context, workflowID, signalName string, signalArg any,
		options client.StartWorkflowOptions, workflow any, workflowArgs ...any) (client.WorkflowRun, error)
	UpdateWorkflow(ctx context.Context, options client.UpdateWorkflowOptions) (client.WorkflowUpdateHandle, error)
	// GetWorkflow is a handle on a workflow's run, to wait for its result
	// (a billing refund's answer waits for the processor's, briefly).
	GetWorkflow(ctx context.Context, workflowID, runID string) client.WorkflowRun
	// DescribeWorkflowExecution tells whose a workflow that exists is (its
	// search attributes), before a start takes "already started" as its own.
	DescribeWorkflowExecution(ctx context.Context, workflowID, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error)
}

// ErrAlreadyStarted reports a start refused because the resource's workflow
// exists already (its id is derived from the resource).
var ErrAlreadyStarted = errors.New("workflow already started")

// TemporalCallTimeout bounds every call a request makes into Temporal (a
// start or a signal): a slow or absent Temporal answers 503 in bounded time
// instead of holding the request, its connection and its locks.
const TemporalCallTimeout = 5 * time.Second

// UpdateTimeout bounds a request waiting for a workflow update's answer
// (a schedule's run-now makes a transfer before answering).
const UpdateTimeout = 30 * time.Second

// start starts a resource's workflow: the one way a use case does. Temporal
// being unreachable, or slower than TemporalCallTimeout, is
// domain.ErrUnavailable (a 503).
func start(ctx context.Context, c Temporal, taskQueue string, st workflows.Start, wf any, arg any) error {
	ctx, cancel := context.WithTimeout(ctx, TemporalCallTimeout)
	defer cancel()
	_, err := c.ExecuteWorkflow(ctx, st.Options(taskQueue), wf, arg)
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	switch {
	case errors.As(err, &already):
		if err := sameResource(ctx, c, st); err != nil {
			return err
		}
		return fmt.Errorf("%w: %s", ErrAlreadyStarted, st.ID)
	case err != nil:
		return fmt.Errorf("%w: start %s: %v", domain.ErrUnavailable, st.ID, err)
	}
	return nil
}

// newID is the id of a new resource of kind: fresh, or, under an
// Idempotency-Key (scoped by its API key, api.scopedKey), derived from the
// account, the key and the resources the request acts on (targets: the
// billing a refund returns, the deposit, the card), so that every attempt
// of one request names the same resource and one key can never name
// another resource's (a refund of billing B2 under the key of B1's refund
// is another refund).
func newID(prefix, accountID, kind, idempotencyKey string, targets ...string) string {
	if idempotencyKey != "" {
		for _, t := range targets {
			idempotencyKey += "\x1f" + t
		}
	}
	return ownedID(prefix, accountID, kind, idempotencyKey, nil)
}

// ownedID is newID for a payment made for its owner (a checkout session, a
// billing): derived under a key, it keeps a new owner's creation time in
// front (domain.ChildID), so payments of new owners are indexed in the
// order they are made, as payments made without a key are.
func ownedID(prefix, accountID, kind, idempotencyKey string, owner *domain.ChargeOwner) string {
	if idempotencyKey == "" {
		return domain.NewID(prefix)
	}
	name := "idempotency:" + accountID + ":" + kind + ":" + idempotencyKey
	if owner == nil {
		return domain.DerivedID(prefix, name)
	}
	return domain.ChildID(prefix, owner.ID, name)
}

// earlierMove finds what an earlier attempt of a money move already did,
// before the move runs any check a new move needs (a retry whose first
// attempt went ahead must answer with it, never with "limit exceeded" or
// "already used"): the record with the id derived from the request's
// Idempotency-Key, or the one with its externalReference. same tells
// whether a found record is the move this request asks for; one that is
// not is a 400 naming the field whose reuse found it.
func earlierMove(ctx context.Context, q sqlx.QueryerContext, accountID, id, idempotencyKey string, ref *string,
	typ string, same func(domain.Transaction) bool) (domain.Transaction, bool, error) {
	try := func(field, idOrRef string) (domain.Transaction, bool, error) {
		t, err := db.GetTransaction(ctx, q, accountID, idOrRef, typ)
		switch {
		case errors.Is(err, domain.ErrNotFound):
			return t, false, nil
		case err != nil:
			return t, false, err
		case field == "Idempotency-Key" && ownsKey(ctx, t.CreatedAt.Time) != nil:
			return domain.Transaction{}, false, ownsKey(ctx, t.CreatedAt.Time)
		case !same(t):
			return domain.Transaction{}, false, domain.Invalid(field, "was already used by %s %s with another amount or recipient", typ, t.ID)
		}
		return t, true, nil
	}
	if idempotencyKey != "" {
		if t, found, err := try("Idempotency-Key", id); found || err != nil {
			return t, found, err
		}
	}
	if ref != nil {
		return try("externalReference", *ref)
	}
	return domain.Transaction{}, false, nil
}

// signal sends a signal to a resource's workflow, the one way the service
// acts on a running payment (an operator's decision, a processor's notice,
// a wake). A workflow that is not running answers with a 400 saying gone;
// Temporal being unreachable, or slower than TemporalCallTimeout, is a 503
// (temporalError).
func signal(ctx context.Context, c Temporal, workflowID, name string, arg any, gone string) error {
	ctx, cancel := context.WithTimeout(ctx, TemporalCallTimeout)
	defer cancel()
	err := c.SignalWorkflow(ctx, workflowID, "", name, arg)
	return temporalError(err, "signal "+workflowID, domain.Invalidf("%s", gone))
}

// signalWithStart sends a signal to the workflow of a committed resource,
// starting it first if it has not started (its create's start is still
// under way or died, and the sweeper has not run yet) and ending its start
// delay (a deferred charge runs its first task now). A workflow that this
// call starts is started without a delay: a Signal-With-Start that creates
// a delayed workflow does not end the delay it created, so the notice
// would wait for the charge's expiry. A workflow that has closed answers
// with a 400 saying gone; Temporal being unreachable is a 503
// (temporalError).
func signalWithStart(ctx context.Context, c Temporal, taskQueue string, l launch, name string, arg any, gone string) error {
	ctx, cancel := context.WithTimeout(ctx, TemporalCallTimeout)
	defer cancel()
	st := l.st
	st.Delay = 0
	_, err := c.SignalWithStartWorkflow(ctx, st.ID, name, arg, st.Options(taskQueue), l.wf, l.arg)
	return temporalError(err, "signal "+l.st.ID, domain.Invalidf("%s", gone))
}

// update sends an update to a resource's workflow and waits, at most
// UpdateTimeout, for its answer, decoded into out; the workflow's
// validator refuses an update whose target (the last of args) names
// another resource. The use case has read the resource open before it
// asks, so a workflow that is not running is not the merchant's mistake:
// its start is still owed (the sweeper makes it shortly) or it closed a
// moment ago. That is a 503, and the retry reads the resource as it then
// is (a closed one answers its own 400). A business refusal of the
// workflow is a 400, Temporal away a 503 (temporalError).
func update(ctx context.Context, c Temporal, workflowID, name string, out any, args ...any) error {
	ctx, cancel := context.WithTimeout(ctx, UpdateTimeout)
	defer cancel()
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: workflowID, UpdateName: name, Args: args, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		err = h.Get(ctx, out)
	}
	return temporalError(err, "update "+name+" of "+workflowID,
		fmt.Errorf("%w: %s has no running workflow yet, retry shortly", domain.ErrUnavailable, workflowID))
}

// temporalError is the one mapping of what Temporal answers a use case's
// call to a resource's workflow (a signal, a Signal-With-Start, an
// update; call names it for the logs) to the domain's errors:
//
//   - the workflow refused the request by a business rule (an update's
//     ApplicationError of type activities.ErrTypeInvalid or
//     ErrTypeInsufficient): domain.Invalidf or domain.Insufficient with
//     its message, a 400;
//   - the workflow is not running: not found (never started) or already
//     completed (both serviceerror.NotFound), or closed with its id not
//     reusable (a Signal-With-Start's WorkflowExecutionAlreadyStarted):
//     notRunning, what the caller answers for its resource then;
//   - anything else: Temporal unreachable, or the call's deadline passed
//     (context.DeadlineExceeded, serviceerror.DeadlineExceeded, an update's
//     client.WorkflowUpdateServiceTimeoutOrCanceledError), or a refusal of
//     another type: domain.ErrUnavailable, a 503.
func temporalError(err error, call string, notRunning error) error {
	if err == nil {
		return nil
	}
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		switch app.Type() {
		case activities.ErrTypeInvalid:
			return domain.Invalidf("%s", app.Message())
		case activities.ErrTypeInsufficient:
			return domain.Insufficient("%s", app.Message())
		}
	}
	var nf *serviceerror.NotFound
	var closed *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &nf) || errors.As(err, &closed) {
		return notRunning
	}
	return fmt.Errorf("%w: %s: %v", domain.ErrUnavailable, call, err)
}

// ptrEq tells whether an optional stored id equals a request's ("" for
// none).
func ptrEq(stored *string, sent string) bool {
	if stored == nil {
		return sent == ""
	}
	return *stored == sent
}

// ErrForeignWorkflow reports a start refused because a workflow of its id
// exists for another resource: its id was reused, and taking it as this
// resource's workflow would leave this resource with none (a refund booked,
// and never asked of the processor).
var ErrForeignWorkflow = errors.New("a workflow of this id belongs to another resource")

// sameResource tells whether the workflow of st's id that exists (running
// or closed) is st's resource's: the same account, resource, type and
// owner in its search attributes (workflows.Start.Identity). It is asked
// only when a start finds the id taken, so a first start costs nothing.
func sameResource(ctx context.Context, c Temporal, st workflows.Start) error {
	d, err := c.DescribeWorkflowExecution(ctx, st.ID, "")
	if err != nil {
		return fmt.Errorf("%w: describe %s: %v", domain.ErrUnavailable, st.ID, err)
	}
	if found, want := workflows.IdentityOf(d.GetWorkflowExecutionInfo().GetSearchAttributes()), st.Identity(); !found.Same(want) {
		slog.Error("a workflow of this id belongs to another resource: not started", "workflow", st.ID, "found", found, "want", want)
		return fmt.Errorf("%w: %s is %+v, not %+v", ErrForeignWorkflow, st.ID, found, want)
	}
	return nil
}
