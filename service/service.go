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
	"time"

	"github.com/jmoiron/sqlx"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

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
		return fmt.Errorf("%w: %s", ErrAlreadyStarted, st.ID)
	case err != nil:
		return fmt.Errorf("%w: start %s: %v", domain.ErrUnavailable, st.ID, err)
	}
	return nil
}

// newID is the id of a new resource of kind: fresh, or, under an
// Idempotency-Key (scoped by its API key, api.scopedKey), derived from the
// account and the key, so that every attempt of one request names the same
// resource.
func newID(prefix, accountID, kind, idempotencyKey string) string {
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
// acts on a running payment. A workflow that has already closed answers
// with a 400 saying gone; Temporal being unreachable is a 503.
func signal(ctx context.Context, c Temporal, workflowID, name string, arg any, gone string) error {
	ctx, cancel := context.WithTimeout(ctx, TemporalCallTimeout)
	defer cancel()
	err := c.SignalWorkflow(ctx, workflowID, "", name, arg)
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return domain.Invalidf("%s", gone)
	}
	if err != nil {
		return fmt.Errorf("%w: signal %s: %v", domain.ErrUnavailable, workflowID, err)
	}
	return nil
}

// signalWithStart sends a signal to the workflow of a committed resource,
// starting it first if it has not started (its create's start is still
// under way or died, and the sweeper has not run yet) and ending its start
// delay (a deferred charge runs its first task now). A workflow that this
// call starts is started without a delay: a Signal-With-Start that creates
// a delayed workflow does not end the delay it created, so the notice
// would wait for the charge's expiry. A workflow that has closed answers
// with a 400 saying gone; Temporal being unreachable is a 503.
func signalWithStart(ctx context.Context, c Temporal, taskQueue string, l launch, name string, arg any, gone string) error {
	ctx, cancel := context.WithTimeout(ctx, TemporalCallTimeout)
	defer cancel()
	st := l.st
	st.Delay = 0
	_, err := c.SignalWithStartWorkflow(ctx, st.ID, name, arg, st.Options(taskQueue), l.wf, l.arg)
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &already) { // closed, and its id may not be reused
		return domain.Invalidf("%s", gone)
	}
	if err != nil {
		return fmt.Errorf("%w: signal %s: %v", domain.ErrUnavailable, l.st.ID, err)
	}
	return nil
}

// ptrEq tells whether an optional stored id equals a request's ("" for
// none).
func ptrEq(stored *string, sent string) bool {
	if stored == nil {
		return sent == ""
	}
	return *stored == sent
}
