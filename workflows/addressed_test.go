package workflows

import (
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/processor"
)

// A sealed payload copied out of another workflow's history cannot move
// this one's money: a "paid" notice naming another charge, or none (as
// notices written before they named their charge), is ignored; the
// charge neither pays nor wedges, and still expires at its time. Before,
// the workflow took any final notice, whichever charge it was written for.
func TestChargeNoticeForAnotherChargeNeitherPaysNorWedges(t *testing.T) {
	env, f, in := newChargeEnv(t)
	start := env.Now()
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{ChargeID: "c2", Outcome: processor.OutcomePaid, EndToEndID: "E2"})
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{Outcome: processor.OutcomePaid, EndToEndID: "E0"})
	}, time.Hour)
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCanceled {
		t.Fatalf("status %s, want CANCELED at expiry", got)
	}
	if elapsed := env.Now().Sub(start); elapsed < 24*time.Hour-time.Second {
		t.Fatalf("ended after %v, want the expiry (24h)", elapsed)
	}
	if f.calls["settle"] != 0 || f.calls["expire"] != 1 {
		t.Fatalf("calls %v", f.calls)
	}
}

// After notices for other charges, the charge's own notice decides: a
// failure naming it fails it (the "paid" for another charge did not
// count), and a "paid" naming it pays it.
func TestChargeOwnNoticeCountsAfterAnotherCharges(t *testing.T) {
	for _, tc := range []struct {
		outcome, want, call string
	}{
		{processor.OutcomeFailed, domain.StatusFailed, "fail"},
		{processor.OutcomePaid, domain.StatusCompleted, "settle"},
	} {
		t.Run(tc.outcome, func(t *testing.T) {
			env, f, in := newChargeEnv(t)
			env.RegisterDelayedCallback(func() {
				env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{ChargeID: "c2", Outcome: processor.OutcomePaid, EndToEndID: "E2"})
			}, time.Hour)
			env.RegisterDelayedCallback(func() {
				env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{ChargeID: "c1", Outcome: tc.outcome, EndToEndID: "E1"})
			}, 2*time.Hour)
			env.ExecuteWorkflow(ChargeWorkflow, in)
			if got := result(t, env); got != tc.want {
				t.Fatalf("status %s, want %s", got, tc.want)
			}
			if f.calls[tc.call] != 1 || f.calls["settle"]+f.calls["fail"]+f.calls["expire"] != 1 {
				t.Fatalf("calls %v", f.calls)
			}
		})
	}
}

// Histories recorded before notices named their charge (DefaultVersion)
// replay the decisions they recorded: there, a notice without a charge id
// paid, and still does.
func TestChargeHistoriesBeforeAddressedNoticesTakeAnyNotice(t *testing.T) {
	env, f, in := newChargeEnv(t)
	env.OnGetVersion(addressedChange, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ChargeSignal, processor.ChargeNotice{Outcome: processor.OutcomePaid, EndToEndID: "E1"})
	}, time.Hour)
	env.ExecuteWorkflow(ChargeWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted || f.calls["settle"] != 1 {
		t.Fatalf("status %s, calls %v", got, f.calls)
	}
}

// A "settled" notice naming another PIX out (or none) neither completes
// this one nor ends its wait: its own "failed" notice, later, fails it.
// And its own "settled" notice, after another transfer's, completes it.
func TestTransferNoticeForAnotherTransferIsIgnored(t *testing.T) {
	others := func(env interface{ SignalWorkflow(string, any) }) {
		env.SignalWorkflow(NoticeSignal, processor.TransferNotice{TransferID: "t2", Outcome: processor.OutcomeSettled})
		env.SignalWorkflow(NoticeSignal, processor.TransferNotice{Outcome: processor.OutcomeSettled})
	}
	env, f, in := transferEnv(t, false)
	env.RegisterDelayedCallback(func() { others(env) }, time.Minute)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(NoticeSignal, notice(processor.OutcomeFailed)) }, time.Hour)
	env.ExecuteWorkflow(TransferWorkflow, in)
	if got := result(t, env); got != domain.StatusFailed || f.calls["complete"] != 0 || f.posted["fail"] != 1 {
		t.Fatalf("status %s, calls %v", got, f.calls)
	}

	env, f, in = transferEnv(t, false)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(NoticeSignal, processor.TransferNotice{TransferID: "t2", Outcome: processor.OutcomeFailed})
	}, time.Minute)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(NoticeSignal, notice(processor.OutcomeSettled)) }, time.Hour)
	env.ExecuteWorkflow(TransferWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted || f.posted["complete"] != 1 || f.calls["fail"] != 0 {
		t.Fatalf("status %s, calls %v", got, f.calls)
	}
}

// An "approve" naming another held PIX out, or none (the bare string that
// decisions were), does not approve this one: the review still times out
// as a rejection. Its own "approve" approves it.
func TestTransferReviewDecisionForAnotherTransferIsIgnored(t *testing.T) {
	env, f, in := transferEnv(t, true)
	start := env.Now()
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ReviewSignal, ReviewDecision{TransferID: "t2", Decision: DecisionApprove})
		env.SignalWorkflow(ReviewSignal, DecisionApprove)
		env.SignalWorkflow(ReviewSignal, map[string]string{"decision": DecisionApprove})
	}, time.Hour)
	env.ExecuteWorkflow(TransferWorkflow, in)
	if got := result(t, env); got != domain.StatusFailed || f.decision != DecisionReject || f.calls["submit"] != 0 {
		t.Fatalf("after decisions for others: %s %s %v", got, f.decision, f.calls)
	}
	if elapsed := env.Now().Sub(start); elapsed < ReviewTimeout {
		t.Fatalf("rejected after %v, want the review timeout (%v)", elapsed, ReviewTimeout)
	}

	env, f, in = transferEnv(t, true)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ReviewSignal, ReviewDecision{TransferID: "t2", Decision: DecisionReject})
	}, time.Hour)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(ReviewSignal, decision(DecisionApprove)) }, 2*time.Hour)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(NoticeSignal, notice(processor.OutcomeSettled)) }, 3*time.Hour)
	env.ExecuteWorkflow(TransferWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted || f.decision != DecisionApprove {
		t.Fatalf("own approve: %s %s", got, f.decision)
	}
}

// Transfers whose histories were recorded before decisions and notices
// named their transfer (DefaultVersion) read what they read then: a bare
// "approve" approves, an object does not decode as their string did (it is
// ignored), and a notice without a transfer id counts.
func TestTransferHistoriesBeforeAddressedSignalsReadAsBefore(t *testing.T) {
	env, f, in := transferEnv(t, true)
	env.OnGetVersion(addressedChange, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ReviewSignal, decision(DecisionReject)) // an object: the old string could not hold it
		env.SignalWorkflow(ReviewSignal, DecisionApprove)
	}, time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(NoticeSignal, processor.TransferNotice{Outcome: processor.OutcomeSettled})
	}, 2*time.Hour)
	env.ExecuteWorkflow(TransferWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted || f.decision != DecisionApprove || f.posted["complete"] != 1 {
		t.Fatalf("old history: %s %s %v", got, f.decision, f.posted)
	}
}

// A refund's "settled" notice naming another deposit is ignored: the
// refund's own "failed" notice, later, fails it.
func TestRefundNoticeForAnotherDepositIsIgnored(t *testing.T) {
	env, f, in := refundEnv()
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(NoticeSignal, processor.RefundNotice{DepositID: "d2", Outcome: processor.OutcomeSettled})
		env.SignalWorkflow(NoticeSignal, processor.RefundNotice{Outcome: processor.OutcomeSettled})
	}, time.Minute)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(NoticeSignal, processor.RefundNotice{DepositID: "d1", Outcome: processor.OutcomeFailed})
	}, time.Hour)
	env.ExecuteWorkflow(RefundWorkflow, in)
	if got := result(t, env); got != domain.StatusFailed || f.calls["complete"] != 0 || f.posted["fail"] != 1 {
		t.Fatalf("status %s, calls %v", got, f.calls)
	}
}

// An update to a schedule must name it: run-now with no payload (as a
// frontend client holding no key could send it, and as callers from
// before sent it), or naming another schedule (a copy from its history),
// is rejected and runs nothing; cancel and a patch likewise. The update
// naming the schedule runs. Before, run-now took no argument at all and
// any client of the frontend could run a schedule's transfer.
func TestScheduleUpdateForAnotherScheduleIsRejected(t *testing.T) {
	start := time.Date(2026, 3, 10, 8, 0, 0, 0, saoPaulo)
	env, f := scheduleEnv(start)
	var noTarget, other, cancelOther, patchOther, own error
	paused := schedule.StatusPaused
	var rec schedule.Record
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(ScheduleRunNow, "bare", &testsuite.TestUpdateCallback{
			OnReject: func(err error) { noTarget = err }, OnComplete: func(_ any, err error) { noTarget = errors.New("accepted") }})
		updateTo(env, "s2", ScheduleRunNow, nil, &other)
		updateTo(env, "s2", ScheduleCancel, nil, &cancelOther)
		updateTo(env, "s2", ScheduleUpdate, nil, &patchOther, schedule.Patch{Status: &paused})
	}, time.Minute)
	env.RegisterDelayedCallback(func() { update(env, ScheduleRunNow, &rec, &own) }, 2*time.Minute)
	env.ExecuteWorkflow(ScheduleWorkflow, recurring(start, schedule.Rule{Interval: schedule.Daily, Time: "09:00"}, 1))
	if got := result(t, env); got != schedule.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	for name, err := range map[string]error{"run-now without target": noTarget, "run-now for s2": other, "cancel for s2": cancelOther, "patch for s2": patchOther} {
		if err == nil || !strings.Contains(err.Error(), "names schedule") {
			t.Errorf("%s: %v, want rejected", name, err)
		}
	}
	// Only the own run-now ran, at 08:02: the schedule was neither
	// cancelled nor paused by the others, and closed at maxRuns 1.
	if own != nil || rec.Run == nil || rec.Run.RunNumber != 1 {
		t.Fatalf("own run-now: %v %+v", own, rec)
	}
	wantRuns(t, f, "2026-03-10 08:02")
}

// Schedules whose histories were recorded before updates named their
// schedule (DefaultVersion) take updates without a target, as they did.
func TestScheduleHistoriesBeforeTargetsTakeBareUpdates(t *testing.T) {
	start := time.Date(2026, 3, 10, 8, 0, 0, 0, saoPaulo)
	env, f := scheduleEnv(start)
	env.OnGetVersion(addressedChange, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	var err error
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(ScheduleRunNow, "bare", &testsuite.TestUpdateCallback{
			OnReject: func(e error) { err = e }, OnComplete: func(_ any, e error) { err = e }})
	}, time.Minute)
	env.ExecuteWorkflow(ScheduleWorkflow, recurring(start, schedule.Rule{Interval: schedule.Daily, Time: "09:00"}, 1))
	if got := result(t, env); got != schedule.StatusCompleted || err != nil {
		t.Fatalf("status %s, run-now %v", got, err)
	}
	wantRuns(t, f, "2026-03-10 08:01")
}
