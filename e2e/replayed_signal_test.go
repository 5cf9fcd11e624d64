package e2e

import (
	"context"
	"math"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/jangada/jangada/codec"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// A sealed "paid" notice is not a bearer token: one that pays charge B
// cannot pay charge A. Two attackers try. One holds no key: it copies the
// sealed bytes of B's real notice out of B's history and signals them, as
// they are, to A (Signal-With-Start, which ends A's deferred start). The
// other holds the codec (what a frontend client with a sealing endpoint
// amounts to): it seals a fresh "paid" notice naming B and signals it to
// A. The codec opens both (they are genuinely sealed), and A's workflow
// reads both and ignores them, as naming another charge: A stays PENDING,
// runs no step, and the balance does not move. The sandbox's notice for A
// then pays it. Before, a notice carried no charge id and A's workflow
// settled on whichever "paid" notice reached it (the replay
// of sealed payloads).
func TestReplayedSealedNoticeMovesNothing(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	a := e.createCharge(m, map[string]any{"amount": 20, "description": "replay target"})["id"].(string)
	b := e.createCharge(m, map[string]any{"amount": 30, "description": "replay source"})["id"].(string)
	ctx := context.Background()
	pay := func(id string) {
		t.Helper()
		if r := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", map[string]any{"payerName": "Ana", "payerDocument": "52998224725"}); r.Status != 200 {
			t.Fatalf("pay %s: %d %s", id, r.Status, r.Message)
		}
	}
	pay(b)
	paidB := e.waitStatus(m, b, "COMPLETED")
	before := e.balance(m)["available"].(float64)

	// B's real notice, as its history holds it: sealed.
	var copied *commonpb.Payload
	for _, ev := range history(t, e, workflows.ChargeWorkflowID(b)) {
		if s := ev.GetWorkflowExecutionSignaledEventAttributes(); s.GetSignalName() == workflows.ChargeSignal {
			copied = s.GetInput().GetPayloads()[0]
		}
	}
	if copied == nil {
		t.Fatal("no notice in charge B's history")
	}
	if enc := string(copied.GetMetadata()["encoding"]); enc != codec.EncodingEncrypted {
		t.Fatalf("B's notice is %q, want sealed", enc)
	}
	var bNotice processor.ChargeNotice
	if err := dataConverter.FromPayload(copied, &bNotice); err != nil {
		t.Fatalf("open B's notice: %v", err)
	}
	if bNotice.Outcome != processor.OutcomePaid || bNotice.ChargeID != b || bNotice.EndToEndID != paidB["endToEndId"] {
		t.Fatalf("B's notice %+v, want B's payment", bNotice)
	}

	wid := workflows.ChargeWorkflowID(a)
	raw, err := client.Dial(client.Options{HostPort: server.GetFrontendHostPort(), Namespace: server.GetDefaultNamespace()})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	eventually(t, "charge A's workflow to exist", func() bool {
		_, err := raw.DescribeWorkflowExecution(ctx, wid, "")
		return err == nil
	})
	pending := func() {
		t.Helper()
		if got := e.call(m.Key, "GET", "/v1/payment-pix/get/"+a, nil).m(t); got["status"] != "PENDING" {
			t.Fatalf("a notice for charge B moved charge A to %v", got["status"])
		}
	}

	// The keyless attacker: B's sealed bytes, passed through untouched.
	if _, err := raw.SignalWithStartWorkflow(ctx, wid, workflows.ChargeSignal, converter.NewRawValue(copied),
		client.StartWorkflowOptions{TaskQueue: e.app.Cfg.TaskQueue}, "ChargeWorkflow", map[string]any{}); err != nil {
		t.Fatalf("replayed signal-with-start: %v", err)
	}
	// Positive proof that the worker read it and moved on: the task after
	// the signal started the expiry timer (the wait), not a settle.
	eventually(t, "A's workflow to read the copied notice and wait on", func() bool {
		pending()
		h := history(t, e, wid)
		return count(h, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) == 1 &&
			after(h, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, enumspb.EVENT_TYPE_TIMER_STARTED)
	})

	// The attacker with the codec: a fresh "paid" notice naming B, sealed.
	at := time.Now().UTC()
	if err := temporalClient.SignalWorkflow(ctx, wid, "", workflows.ChargeSignal, processor.ChargeNotice{
		ChargeID: b, Outcome: processor.OutcomePaid, EndToEndID: processor.EndToEndID("99999999", at), At: at,
		Payer: &domain.Party{Name: "Mallory", Document: "52998224725"},
	}); err != nil {
		t.Fatalf("sealed notice for B: %v", err)
	}
	eventually(t, "A's workflow to read the sealed notice for B", func() bool {
		pending()
		h := history(t, e, wid)
		return count(h, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) == 2 &&
			after(h, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
	})
	h := history(t, e, wid)
	steps := count(h, enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) + count(h, enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED)
	for _, ev := range h { // a charge's transitions are local activities
		if ev.GetMarkerRecordedEventAttributes().GetMarkerName() == "LocalActivity" {
			steps++
		}
	}
	if steps != 0 {
		t.Fatalf("the notices for B ran %d steps or failed tasks on A", steps)
	}
	pending()
	if got := e.balance(m)["available"].(float64); got != before {
		t.Fatalf("balance moved from %v to %v", before, got)
	}

	// The control: A's own notice, through the sandbox, pays A.
	pay(a)
	done := e.waitStatus(m, a, "COMPLETED")
	if done["endToEndId"] == paidB["endToEndId"] {
		t.Fatal("charge A settled with B's endToEndId")
	}
	if got := e.balance(m)["available"].(float64); math.Abs(got-(before+19.5)) > 0.001 {
		t.Fatalf("balance after A's payment %v, want %v", got, before+19.5)
	}
	e.verifyLedger()
}
