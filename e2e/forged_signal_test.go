package e2e

import (
	"context"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/jangada/jangada/workflows"
)

// A client of the Temporal frontend that holds no payload key cannot pay a
// charge: it signals `processor-notice` {"outcome":"paid"} to charge/<id>,
// plainly and as Signal-With-Start (which ends the deferred start, so the
// worker reads the notice at once), and the worker refuses the unsealed
// payloads (the codec) and drops the signals; the charge stays PENDING, no
// money moves, and the wait for expiry goes on. The same notice through the
// sealed path (the sandbox's pay route) pays. Before, the codec passed
// clear payloads through and the forged notice settled the charge, crediting
// the merchant.
func TestForgedTemporalSignalMovesNothing(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	c := e.createCharge(m, map[string]any{"amount": 20, "description": "forged signal target"})
	id := c["id"].(string)
	wid := workflows.ChargeWorkflowID(id)
	ctx := context.Background()
	before := e.balance(m)["available"]

	// The attacker: the SDK's plain data converter, no codec.
	raw, err := client.Dial(client.Options{HostPort: server.GetFrontendHostPort(), Namespace: server.GetDefaultNamespace()})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	eventually(t, "the charge's workflow to exist", func() bool {
		_, err := raw.DescribeWorkflowExecution(ctx, wid, "")
		return err == nil
	})
	refusedBefore := refusedPayloads()
	notice := map[string]any{"outcome": "paid", "endToEndId": "E00000000202611251200forged0001", "at": "2026-11-25T12:00:00Z"}
	if err := raw.SignalWorkflow(ctx, wid, "", workflows.ChargeSignal, notice); err != nil {
		t.Fatalf("plain forged signal: %v", err)
	}
	if _, err := raw.SignalWithStartWorkflow(ctx, wid, workflows.ChargeSignal, notice,
		client.StartWorkflowOptions{TaskQueue: e.app.Cfg.TaskQueue}, "ChargeWorkflow", map[string]any{}); err != nil {
		t.Fatalf("forged signal-with-start: %v", err)
	}
	// Positive proof that the worker read both and acted on neither: a
	// workflow task completed after the signals, and what it decided was
	// to start the expiry timer (awaitSignal), not a settle.
	eventually(t, "the worker to read the forged signals and wait on", func() bool {
		if got := e.call(m.Key, "GET", "/v1/payment-pix/get/"+id, nil).m(t); got["status"] != "PENDING" {
			t.Fatalf("the forged notice moved the charge to %v", got["status"])
		}
		h := history(t, e, wid)
		return count(h, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) == 2 &&
			after(h, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, enumspb.EVENT_TYPE_TIMER_STARTED)
	})
	if got := refusedPayloads() - refusedBefore; got < 2 {
		t.Errorf("%v payloads refused, want both forged notices", got)
	}
	// Once more while the workflow waits: the wait must not wedge on it.
	if err := raw.SignalWorkflow(ctx, wid, "", workflows.ChargeSignal, notice); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the worker to read the third forged signal", func() bool {
		h := history(t, e, wid)
		return count(h, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) == 3 &&
			after(h, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
	})
	h := history(t, e, wid)
	steps := count(h, enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
	for _, ev := range h { // a charge's transitions are local activities
		if ev.GetMarkerRecordedEventAttributes().GetMarkerName() == "LocalActivity" {
			steps++
		}
	}
	if steps != 0 {
		t.Fatalf("the forged notices ran %d steps", steps)
	}
	got := e.call(m.Key, "GET", "/v1/payment-pix/get/"+id, nil).m(t)
	if got["status"] != "PENDING" {
		t.Fatalf("after the forged notices the charge is %v", got["status"])
	}
	if after := e.balance(m)["available"]; after != before {
		t.Fatalf("balance moved from %v to %v", before, after)
	}

	// The control: the same notice through the sealed path pays.
	if r := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", map[string]any{"payerName": "Ana", "payerDocument": "52998224725"}); r.Status != 200 {
		t.Fatalf("pay: %d %s", r.Status, r.Message)
	}
	done := e.waitStatus(m, id, "COMPLETED")
	if done["endToEndId"] == notice["endToEndId"] {
		t.Fatal("the charge settled with the forged notice's endToEndId")
	}
	if got := e.balance(m)["available"]; got != 19.5 {
		t.Fatalf("balance after the real payment %v, want 19.5", got)
	}
	e.verifyLedger()
}

func history(t *testing.T, e *env, wid string) []*historypb.HistoryEvent {
	t.Helper()
	var out []*historypb.HistoryEvent
	it := e.app.Temporal.GetWorkflowHistory(context.Background(), wid, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatalf("history of %s: %v", wid, err)
		}
		out = append(out, ev)
	}
	return out
}

func count(h []*historypb.HistoryEvent, typ enumspb.EventType) int {
	n := 0
	for _, ev := range h {
		if ev.GetEventType() == typ {
			n++
		}
	}
	return n
}

// after reports whether an event of type then follows the last event of
// type first.
func after(h []*historypb.HistoryEvent, first, then enumspb.EventType) bool {
	last := -1
	for i, ev := range h {
		if ev.GetEventType() == first {
			last = i
		}
	}
	for _, ev := range h[last+1:] {
		if last >= 0 && ev.GetEventType() == then {
			return true
		}
	}
	return false
}

// refusedPayloads is jangada_temporal_payloads_refused_total (every reason)
// as this process's /metrics shows it: the shared app's worker runs here.
func refusedPayloads() float64 {
	families, _ := prometheus.DefaultGatherer.Gather()
	total := 0.0
	for _, f := range families {
		if f.GetName() == "jangada_temporal_payloads_refused_total" {
			for _, m := range f.GetMetric() {
				total += m.GetCounter().GetValue()
			}
		}
	}
	return total
}
