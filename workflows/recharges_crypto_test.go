package workflows

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

var (
	rechargeActs *activities.Recharges
	cryptoActs   *activities.Crypto
)

// fakeRecord stands in for a recharge's or crypto record's activities: a
// stored status and the steps called.
type fakeRecord struct {
	status string
	calls  map[string]int
	// during runs a test's action while the step of that name runs.
	during map[string]func()
}

func (f *fakeRecord) to(step, status string) (string, error) {
	f.calls[step]++
	if do := f.during[step]; do != nil {
		do()
	}
	if f.status == domain.StatusPending || f.status == domain.StatusProcessing {
		f.status = status
	}
	return f.status, nil
}

func rechargeEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *fakeRecord) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f := &fakeRecord{status: domain.StatusPending, calls: map[string]int{}}
	reg := func(fn any, name any) {
		env.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: actName(name)})
	}
	reg(func(context.Context, domain.Transaction) (string, error) { return f.status, nil }, rechargeActs.EnsureRecharge)
	reg(func(context.Context, string) error { f.calls["submit"]++; return nil }, rechargeActs.SubmitRecharge)
	reg(func(context.Context, activities.RechargeNoticeInput) (string, error) {
		return f.to("complete", domain.StatusCompleted)
	}, rechargeActs.CompleteRecharge)
	reg(func(context.Context, activities.RechargeNoticeInput) (string, error) {
		return f.to("fail", domain.StatusFailed)
	}, rechargeActs.FailRecharge)
	reg(func(context.Context, string) (string, error) { f.calls["status"]++; return f.status, nil }, rechargeActs.RechargeStatus)
	return env, f
}

func rechargeNotice(id, outcome string) processor.RechargeNotice {
	return processor.RechargeNotice{RechargeID: id, Outcome: outcome}
}

func TestRechargeWorkflowCompletesOnTheOperatorsNotice(t *testing.T) {
	t.Parallel()
	env, f := rechargeEnv(t)
	env.RegisterDelayedCallback(func() { // another recharge's notice is ignored
		env.SignalWorkflow(NoticeSignal, rechargeNotice("other", processor.OutcomeCompleted))
	}, time.Second)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(NoticeSignal, rechargeNotice("r1", processor.OutcomeCompleted)) }, time.Minute)
	env.ExecuteWorkflow(RechargeWorkflow, RechargeInput{Recharge: domain.Transaction{ID: "r1", Status: domain.StatusPending}})
	var status string
	if err := env.GetWorkflowResult(&status); err != nil || status != domain.StatusCompleted {
		t.Fatalf("result %s, %v", status, err)
	}
	if f.calls["submit"] != 1 || f.calls["complete"] != 1 || f.calls["fail"] != 0 {
		t.Fatalf("calls %v", f.calls)
	}
}

func TestRechargeWorkflowFails(t *testing.T) {
	t.Parallel()
	env, f := rechargeEnv(t)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(NoticeSignal, rechargeNotice("r1", processor.OutcomeFailed)) }, time.Minute)
	env.ExecuteWorkflow(RechargeWorkflow, RechargeInput{Recharge: domain.Transaction{ID: "r1", Status: domain.StatusPending}})
	var status string
	if err := env.GetWorkflowResult(&status); err != nil || status != domain.StatusFailed || f.calls["fail"] != 1 {
		t.Fatalf("result %s, %v, calls %v", status, err, f.calls)
	}
}

// The cancel use case moves the record, then signals: the workflow ends on
// the stored CANCELED. A "canceled" signal while the record is still
// PENDING (forged, or sent before a commit that failed) changes nothing.
func TestRechargeWorkflowEndsAfterACancellation(t *testing.T) {
	t.Parallel()
	env, f := rechargeEnv(t)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(NoticeSignal, rechargeNotice("r1", RechargeCanceled)) }, time.Second)
	env.RegisterDelayedCallback(func() {
		f.status = domain.StatusCanceled // the cancel use case committed
		env.SignalWorkflow(NoticeSignal, rechargeNotice("r1", RechargeCanceled))
	}, time.Hour)
	env.ExecuteWorkflow(RechargeWorkflow, RechargeInput{Recharge: domain.Transaction{ID: "r1", Status: domain.StatusPending}})
	var status string
	if err := env.GetWorkflowResult(&status); err != nil || status != domain.StatusCanceled {
		t.Fatalf("result %s, %v", status, err)
	}
	if f.calls["status"] != 2 || f.calls["complete"] != 0 {
		t.Fatalf("calls %v", f.calls)
	}
}

func TestRechargeWorkflowStopsAtAFailedGuard(t *testing.T) {
	t.Parallel()
	env, f := rechargeEnv(t)
	f.status = domain.StatusFailed // short of money when the guard wrote it
	env.ExecuteWorkflow(RechargeWorkflow, RechargeInput{Recharge: domain.Transaction{ID: "r1", Status: domain.StatusPending}})
	var status string
	if err := env.GetWorkflowResult(&status); err != nil || status != domain.StatusFailed || f.calls["submit"] != 0 {
		t.Fatalf("result %s, %v, calls %v", status, err, f.calls)
	}
}

func cryptoEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *fakeRecord) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	f := &fakeRecord{status: domain.StatusPending, calls: map[string]int{}}
	reg := func(fn any, name any) {
		env.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: actName(name)})
	}
	ensure := func(context.Context, domain.Transaction) (string, error) { return f.status, nil }
	reg(ensure, cryptoActs.EnsureCryptoDeposit)
	reg(ensure, cryptoActs.EnsureCryptoWithdrawal)
	reg(func(context.Context, activities.CryptoNoticeInput) (string, error) {
		if f.status == domain.StatusCanceled { // coins after the expiry: credited late
			f.status = domain.StatusPending
			return f.to("credit late", domain.StatusCompleted)
		}
		return f.to("credit", domain.StatusCompleted)
	}, cryptoActs.CreditCryptoDeposit)
	reg(func(context.Context, string) (string, error) { return f.to("expire", domain.StatusCanceled) }, cryptoActs.ExpireCryptoDeposit)
	reg(func(context.Context, string) (string, error) {
		if f.calls["submit"] > 0 {
			f.calls["reprice after submit"]++
		}
		f.calls["reprice"]++
		return f.status, nil
	}, cryptoActs.RepriceCryptoWithdrawal)
	reg(func(context.Context, string) error { _, err := f.to("submit", domain.StatusProcessing); return err }, cryptoActs.SubmitCryptoWithdrawal)
	reg(func(context.Context, activities.CryptoNoticeInput) error {
		_, err := f.to("complete", domain.StatusCompleted)
		return err
	}, cryptoActs.CompleteCryptoWithdrawal)
	reg(func(context.Context, activities.CryptoNoticeInput) error {
		_, err := f.to("fail", domain.StatusFailed)
		return err
	}, cryptoActs.FailCryptoWithdrawal)
	reg(func(_ context.Context, in activities.DecideTransferInput) error {
		f.calls["decide "+in.Decision]++
		return nil
	}, transferActs.DecideTransfer)
	return env, f
}

func deposit(expiresIn time.Duration, env *testsuite.TestWorkflowEnvironment) CryptoInput {
	return CryptoInput{Record: domain.Transaction{ID: "d1", Type: domain.TypeCryptoIn, Status: domain.StatusPending,
		ExpiresAt: domain.TimePtr(env.Now().Add(expiresIn))}}
}

func TestCryptoDepositCreditedWhenPaidInTime(t *testing.T) {
	t.Parallel()
	env, f := cryptoEnv(t)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(NoticeSignal, processor.CryptoNotice{ID: "other", Outcome: processor.OutcomePaid})
		env.SignalWorkflow(NoticeSignal, processor.CryptoNotice{ID: "d1", Outcome: processor.OutcomeSettled}) // not a deposit's outcome
	}, time.Minute)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(NoticeSignal, processor.CryptoNotice{ID: "d1", Outcome: processor.OutcomePaid, TxHash: "0x1"})
	}, 10*time.Minute)
	env.ExecuteWorkflow(CryptoDepositWorkflow, deposit(30*time.Minute, env))
	var status string
	if err := env.GetWorkflowResult(&status); err != nil || status != domain.StatusCompleted || f.calls["credit"] != 1 || f.calls["expire"] != 0 {
		t.Fatalf("result %s, %v, calls %v", status, err, f.calls)
	}
}

// Unpaid, the deposit closes when its quote expires: a durable timer, not
// a poll.
func TestCryptoDepositExpiresUnpaid(t *testing.T) {
	t.Parallel()
	env, f := cryptoEnv(t)
	in := deposit(30*time.Minute, env)
	env.RegisterDelayedCallback(func() { // too late: the timer fired first
		env.SignalWorkflow(NoticeSignal, processor.CryptoNotice{ID: "d1", Outcome: processor.OutcomePaid})
	}, 31*time.Minute)
	env.ExecuteWorkflow(CryptoDepositWorkflow, in)
	var status string
	if err := env.GetWorkflowResult(&status); err != nil || status != domain.StatusCanceled || f.calls["expire"] != 1 || f.calls["credit"] != 0 {
		t.Fatalf("result %s, %v, calls %v", status, err, f.calls)
	}
	if env.Now().Before(in.Record.ExpiresAt.Time) {
		t.Fatalf("expired at %v, before its quote's %v", env.Now(), in.Record.ExpiresAt)
	}
}

// A notice the Inbox forwarded while the deposit was expiring (it was still
// PENDING when it looked) is booked late, not dropped with the workflow.
func TestCryptoDepositPaidAsItExpiresIsCreditedLate(t *testing.T) {
	t.Parallel()
	env, f := cryptoEnv(t)
	f.during = map[string]func(){"expire": func() {
		env.SignalWorkflow(NoticeSignal, processor.CryptoNotice{ID: "other", Outcome: processor.OutcomePaid})
		env.SignalWorkflow(NoticeSignal, processor.CryptoNotice{ID: "d1", Outcome: processor.OutcomePaid, TxHash: "0x2"})
	}}
	env.ExecuteWorkflow(CryptoDepositWorkflow, deposit(30*time.Minute, env))
	var status string
	if err := env.GetWorkflowResult(&status); err != nil || status != domain.StatusCompleted || f.calls["expire"] != 1 ||
		f.calls["credit late"] != 1 || f.calls["credit"] != 0 {
		t.Fatalf("result %s, %v, calls %v", status, err, f.calls)
	}
}

func TestCryptoWithdrawalWorkflow(t *testing.T) {
	t.Parallel()
	for outcome, want := range map[string]string{processor.OutcomeSettled: domain.StatusCompleted, processor.OutcomeFailed: domain.StatusFailed} {
		env, f := cryptoEnv(t)
		env.RegisterDelayedCallback(func() {
			env.SignalWorkflow(NoticeSignal, processor.CryptoNotice{ID: "other", Outcome: processor.OutcomeSettled})
			env.SignalWorkflow(NoticeSignal, processor.CryptoNotice{ID: "w1", Outcome: outcome})
		}, time.Minute)
		env.ExecuteWorkflow(CryptoWithdrawalWorkflow, CryptoInput{Record: domain.Transaction{ID: "w1", Type: domain.TypeCryptoOut, Status: domain.StatusPending}})
		var status string
		if err := env.GetWorkflowResult(&status); err != nil || status != want || f.status != want || f.calls["submit"] != 1 {
			t.Fatalf("%s: result %s, %v, stored %s, calls %v", outcome, status, err, f.status, f.calls)
		}
	}
}
