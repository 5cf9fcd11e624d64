package workflows

import (
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// A paid notice the Inbox forwarded while the charge was
// still PENDING, reaching the workflow as it expired the charge (the payer
// paid at the last second), is settled late, not dropped with the
// workflow's duplicates: the payer's money is at the processor.
func TestChargePaidAsItExpiresIsSettledLate(t *testing.T) {
	env, f, in := newChargeEnv(t)
	f.onExpire = func() {
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{ChargeID: "other", Outcome: processor.OutcomePaid})
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{ChargeID: "c1", Outcome: processor.OutcomeFailed})
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{ChargeID: "c1", Outcome: processor.OutcomePaid, EndToEndID: "E1"})
	}
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	if f.calls["expire"] != 1 || f.calls["settle"] != 1 || f.calls["fail"] != 0 {
		t.Fatalf("calls %v", f.calls)
	}
}

// With no paid notice behind it, the expiry is the end (duplicates and
// failures drained as before).
func TestChargeExpiredWithoutALateNoticeStaysCanceled(t *testing.T) {
	env, f, in := newChargeEnv(t)
	f.onExpire = func() {
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{ChargeID: "c1", Outcome: processor.OutcomeExpired})
	}
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCanceled || f.calls["settle"] != 0 {
		t.Fatalf("status %s, calls %v", got, f.calls)
	}
}
