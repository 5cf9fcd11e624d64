package workflows

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// fakeMoney stands in for the transfer and refund activities. Its
// "database" is a status per id and a count of postings per step, written
// idempotently as the real activities do; failAfterCommit makes a step
// return an error after writing, as a crash after COMMIT would.
type fakeMoney struct {
	status          string
	posted          map[string]int
	calls           map[string]int
	decision        string
	failAfterCommit map[string]bool
}

func newFakeMoney() *fakeMoney {
	return &fakeMoney{status: domain.StatusPending, posted: map[string]int{}, calls: map[string]int{}, failAfterCommit: map[string]bool{}}
}

func (f *fakeMoney) step(name string, terminal bool, to string) error {
	f.calls[name]++
	if !terminal || (f.status != domain.StatusCompleted && f.status != domain.StatusFailed) {
		if f.posted[name] == 0 {
			f.posted[name]++
			f.status = to
		}
	}
	if f.failAfterCommit[name] {
		f.failAfterCommit[name] = false
		return errors.New("connection reset after commit")
	}
	return nil
}

func (f *fakeMoney) ensure(context.Context, domain.Transaction) (string, error) { return f.status, nil }
func (f *fakeMoney) decide(_ context.Context, in activities.DecideTransferInput) error {
	f.decision = in.Decision
	return nil
}
func (f *fakeMoney) submit(context.Context, string) error {
	return f.step("submit", true, domain.StatusProcessing)
}
func (f *fakeMoney) complete(context.Context, activities.CompleteTransferInput) error {
	return f.step("complete", true, domain.StatusCompleted)
}
func (f *fakeMoney) completeRefund(context.Context, activities.CompleteRefundInput) error {
	return f.step("complete", true, domain.StatusCompleted)
}
func (f *fakeMoney) fail(context.Context, activities.FailInput) error {
	return f.step("fail", true, domain.StatusFailed)
}

func transferEnv(t *testing.T, review bool) (*testsuite.TestWorkflowEnvironment, *fakeMoney, TransferInput) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f := newFakeMoney()
	env.RegisterActivityWithOptions(f.ensure, activity.RegisterOptions{Name: actName(transferActs.EnsureTransfer)})
	env.RegisterActivityWithOptions(f.decide, activity.RegisterOptions{Name: actName(transferActs.DecideTransfer)})
	env.RegisterActivityWithOptions(f.submit, activity.RegisterOptions{Name: actName(transferActs.SubmitTransfer)})
	env.RegisterActivityWithOptions(f.complete, activity.RegisterOptions{Name: actName(transferActs.CompleteTransfer)})
	env.RegisterActivityWithOptions(f.fail, activity.RegisterOptions{Name: actName(transferActs.FailTransfer)})
	in := TransferInput{Transfer: domain.Transaction{ID: "t1", Status: domain.StatusPending}}
	if review {
		in.Transfer.Details = domain.SomeJSON(domain.Details{SecurityReview: &domain.SecurityReview{Pending: true}})
	}
	return env, f, in
}

// notice is a processor notice for the transfer of transferEnv.
func notice(outcome string) processor.TransferNotice {
	return processor.TransferNotice{TransferID: "t1", Outcome: outcome}
}

// decision is an operator's decision on the transfer of transferEnv.
func decision(d string) ReviewDecision {
	return ReviewDecision{TransferID: "t1", Decision: d}
}

func TestTransferSettles(t *testing.T) {
	env, f, in := transferEnv(t, false)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(NoticeSignal, notice(processor.OutcomeSettled))
		env.SignalWorkflow(NoticeSignal, notice(processor.OutcomeSettled))
		env.SignalWorkflow(NoticeSignal, notice(processor.OutcomeFailed))
	}, time.Minute)
	env.ExecuteWorkflow(TransferWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted || f.posted["complete"] != 1 || f.calls["fail"] != 0 {
		t.Fatalf("status %s, posted %v, calls %v", got, f.posted, f.calls)
	}
}

func TestTransferFailsAtSettlement(t *testing.T) {
	env, f, in := transferEnv(t, false)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(NoticeSignal, notice(processor.OutcomeFailed)) }, time.Minute)
	env.ExecuteWorkflow(TransferWorkflow, in)
	if got := result(t, env); got != domain.StatusFailed || f.posted["fail"] != 1 || f.calls["complete"] != 0 {
		t.Fatalf("status %s, posted %v", got, f.posted)
	}
}

func TestTransferReviewApproveAndReject(t *testing.T) {
	env, f, in := transferEnv(t, true)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(ReviewSignal, decision("perhaps"))
		env.SignalWorkflow(ReviewSignal, decision(DecisionApprove))
		env.SignalWorkflow(ReviewSignal, decision(DecisionReject)) // a second decision changes nothing
	}, time.Hour)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(NoticeSignal, notice(processor.OutcomeSettled)) }, 2*time.Hour)
	env.ExecuteWorkflow(TransferWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted || f.decision != DecisionApprove || f.calls["submit"] != 1 {
		t.Fatalf("approve: %s %s %v", got, f.decision, f.calls)
	}

	env, f, in = transferEnv(t, true)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(ReviewSignal, decision(DecisionReject)) }, time.Hour)
	env.ExecuteWorkflow(TransferWorkflow, in)
	if got := result(t, env); got != domain.StatusFailed || f.calls["submit"] != 0 || f.posted["fail"] != 1 {
		t.Fatalf("reject: %s %v", got, f.calls)
	}
}

func TestTransferReviewTimesOutAsRejection(t *testing.T) {
	env, f, in := transferEnv(t, true)
	env.ExecuteWorkflow(TransferWorkflow, in)
	if got := result(t, env); got != domain.StatusFailed || f.decision != DecisionReject {
		t.Fatalf("timeout: %s %s", got, f.decision)
	}
}

func TestTransferActivityRetryAfterCommitPostsOnce(t *testing.T) {
	env, f, in := transferEnv(t, false)
	f.failAfterCommit["complete"] = true
	f.failAfterCommit["submit"] = true
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(NoticeSignal, notice(processor.OutcomeSettled)) }, time.Minute)
	env.ExecuteWorkflow(TransferWorkflow, in)
	if got := result(t, env); got != domain.StatusCompleted {
		t.Fatalf("status %s", got)
	}
	if f.calls["complete"] != 2 || f.posted["complete"] != 1 || f.calls["submit"] != 2 || f.posted["submit"] != 1 {
		t.Fatalf("retries: calls %v posted %v", f.calls, f.posted)
	}
}

func refundEnv() (*testsuite.TestWorkflowEnvironment, *fakeMoney, RefundInput) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f := newFakeMoney()
	env.RegisterActivityWithOptions(f.ensure, activity.RegisterOptions{Name: actName(refundActs.EnsureRefund)})
	env.RegisterActivityWithOptions(f.submit, activity.RegisterOptions{Name: actName(refundActs.SubmitRefund)})
	env.RegisterActivityWithOptions(f.completeRefund, activity.RegisterOptions{Name: actName(refundActs.CompleteRefund)})
	env.RegisterActivityWithOptions(f.fail, activity.RegisterOptions{Name: actName(refundActs.FailRefund)})
	return env, f, RefundInput{Deposit: domain.Transaction{ID: "d1"}}
}

func TestRefundBranches(t *testing.T) {
	for _, tc := range []struct {
		outcome, want string
	}{{processor.OutcomeSettled, domain.StatusCompleted}, {processor.OutcomeFailed, domain.StatusFailed}} {
		env, f, in := refundEnv()
		f.failAfterCommit["complete"] = true
		env.RegisterDelayedCallback(func() {
			env.SignalWorkflow(NoticeSignal, processor.RefundNotice{DepositID: "d1", Outcome: tc.outcome})
			env.SignalWorkflow(NoticeSignal, processor.RefundNotice{DepositID: "d1", Outcome: tc.outcome})
		}, time.Minute)
		env.ExecuteWorkflow(RefundWorkflow, in)
		if got := result(t, env); got != tc.want || f.posted["complete"]+f.posted["fail"] != 1 {
			t.Fatalf("%s: %s posted %v", tc.outcome, got, f.posted)
		}
	}
	// A refund whose request failed (short of money after a crash) ends at once.
	env, f, in := refundEnv()
	f.status = domain.StatusFailed
	env.ExecuteWorkflow(RefundWorkflow, in)
	if got := result(t, env); got != domain.StatusFailed || f.calls["submit"] != 0 {
		t.Fatalf("failed request: %s %v", got, f.calls)
	}
}
