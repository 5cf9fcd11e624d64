package workflows

import (
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// A signal the worker cannot decode — a forged one the payload codec
// refuses, or a mistyped one — is dropped and the
// charge still expires at its time. Before, the wait read the signal with
// Receive inside the selector's callback: the SDK dropped the corrupt
// value there and blocked in the callback for the next one, so the expiry
// timer never fired and the charge stayed PENDING for good.
func TestChargeUndecodableSignalNeitherPaysNorWedges(t *testing.T) {
	env, f, in := newChargeEnv(t)
	start := env.Now()
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ChargeSignal, "paid") // not a ChargeNotice: decoding fails
	}, time.Hour)
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCanceled {
		t.Fatalf("status %s", got)
	}
	if elapsed := env.Now().Sub(start); elapsed < 24*time.Hour-time.Second {
		t.Fatalf("ended after %v, want the expiry (24h)", elapsed)
	}
	if f.calls["settle"] != 0 || f.calls["expire"] != 1 {
		t.Fatalf("calls %v", f.calls)
	}
}

// After an undecodable signal, a real notice still counts.
func TestChargeNoticeAfterUndecodableSignalCounts(t *testing.T) {
	env, f, in := newChargeEnv(t)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(ChargeSignal, 42) }, time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{ChargeID: "c1", Outcome: processor.OutcomePaid, EndToEndID: "E1"})
	}, 2*time.Hour)
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	if f.calls["settle"] != 1 {
		t.Fatalf("calls %v", f.calls)
	}
}

// A held PIX out whose review receives an undecodable decision (a forged
// "approve" the codec refuses) is not approved, and the review still times
// out as a rejection instead of waiting forever.
func TestTransferReviewUndecodableDecisionStillTimesOut(t *testing.T) {
	env, f, in := transferEnv(t, true)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ReviewSignal, 42) // neither a decision nor a bare string: decoding fails
	}, time.Hour)
	env.ExecuteWorkflow(TransferWorkflow, in)
	if got := result(t, env); got != domain.StatusFailed || f.decision != DecisionReject {
		t.Fatalf("after an undecodable decision: %s %s", got, f.decision)
	}
}
