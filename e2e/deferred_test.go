package e2e

import (
	"context"
	"testing"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// historyEvents reads a workflow's whole history (its latest run).
func historyEvents(t *testing.T, e *env, workflowID string) []*historypb.HistoryEvent {
	t.Helper()
	var out []*historypb.HistoryEvent
	it := e.app.Temporal.GetWorkflowHistory(context.Background(), workflowID, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	return out
}

// historyTypes lists a workflow's history event types.
func historyTypes(t *testing.T, e *env, workflowID string) []enums.EventType {
	t.Helper()
	var out []enums.EventType
	for _, ev := range historyEvents(t, e, workflowID) {
		out = append(out, ev.GetEventType())
	}
	return out
}

func hasEvent(evs []enums.EventType, want enums.EventType) bool {
	for _, ev := range evs {
		if ev == want {
			return true
		}
	}
	return false
}

// TestChargeStartsDeferredUntilANotice: a new charge's workflow starts
// beside the create's answer but runs no workflow task (its start is
// deferred to the expiry); a plain signal is recorded and waits; the
// processor notice, sent as Signal-With-Start, runs it, and the notice
// that arrived first decides.
func TestChargeStartsDeferredUntilANotice(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	c := e.createCharge(m, map[string]any{"amount": 12, "description": "Adiada"})
	id := c["id"].(string)
	wid := workflows.ChargeWorkflowID(id)
	eventually(t, "the charge's workflow to start", func() bool {
		_, err := e.app.Temporal.DescribeWorkflowExecution(context.Background(), wid, "")
		return err == nil
	})
	evs := historyTypes(t, e, wid)
	if !hasEvent(evs, enums.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED) || hasEvent(evs, enums.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) {
		t.Fatalf("history after create: %v; want the start and no workflow task", evs)
	}

	// An operator's plain signal (the Web UI sends those) is recorded and
	// waits for the first task. It names the charge, as every notice must.
	if err := e.app.Temporal.SignalWorkflow(context.Background(), wid, "", workflows.ChargeSignal,
		processor.ChargeNotice{ChargeID: id, Outcome: processor.OutcomeFailed}); err != nil {
		t.Fatal(err)
	}
	evs = historyTypes(t, e, wid)
	if !hasEvent(evs, enums.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) || hasEvent(evs, enums.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) {
		t.Fatalf("history after a plain signal: %v; want the signal recorded and still no workflow task", evs)
	}
	e.waitStatus(m, id, "PENDING")

	// The processor's notice ends the delay; the failure signalled first
	// is the first notice the workflow reads.
	if r := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", nil); r.Status != 200 {
		t.Fatalf("pay: %d %s", r.Status, r.Message)
	}
	e.waitStatus(m, id, "FAILED")
	e.verifyLedger()
}
