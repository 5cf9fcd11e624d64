package workflows

import (
	"go.temporal.io/sdk/workflow"
)

// addressedChange marks histories whose workflows act only on signals that
// name their own resource (version 1). The payload codec makes a payload
// unforgeable, not unmovable: a client of the Temporal frontend could copy
// a sealed "paid" notice, a settled transfer notice or an "approve" out of
// one workflow's history and signal it to another. Every money-moving
// payload therefore carries its resource's id, set by the one place that
// sends it (service.Inbox, service.Transfers.Review), and a workflow of
// version 1 ignores one naming another resource, or none. Histories
// recorded before (DefaultVersion) accept what they accepted then, so they
// replay the decisions they recorded.
const addressedChange = "signals-name-their-resource"

// addressedOnly reports whether this execution requires every signal to
// name its resource. Called once, at the start of the workflow, so that an
// execution answers the same way for its whole life (a marker for new
// executions; none, hence DefaultVersion, on the replay of older ones).
func addressedOnly(ctx workflow.Context) bool {
	return workflow.GetVersion(ctx, addressedChange, workflow.DefaultVersion, 1) == 1
}

// addressedTo wraps accept for awaitSignal and receiveNow: when required,
// a value whose resource id (idOf) is not id — another resource's, or
// empty as in payloads written before ids were carried — is refused and
// logged, and the wait goes on as for any value it ignores (never a
// failure, never a wedge: a timeout still holds).
func addressedTo[T any](ctx workflow.Context, required bool, signal, id string, idOf func(T) string, accept func(T) bool) func(T) bool {
	return func(v T) bool {
		if required && idOf(v) != id {
			workflow.GetLogger(ctx).Warn("ignoring a signal addressed to another resource",
				"signal", signal, "resource", id, "addressedTo", idOf(v))
			return false
		}
		return accept(v)
	}
}
