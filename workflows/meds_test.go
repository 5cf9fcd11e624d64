package workflows

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/processor"
)

var medActs *activities.MEDs

// fakeMED stands in for the dispute's activities: it records each call
// with the test clock's time (the durable timers are skipped through).
type fakeMED struct {
	env    *testsuite.TestWorkflowEnvironment
	start  time.Time
	status string
	mu     sync.Mutex
	calls  []medCall
}

type medCall struct {
	name   string
	after  time.Duration
	status string
}

func (f *fakeMED) record(name, status string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, medCall{name, f.env.Now().Sub(f.start).Round(time.Minute), status})
}

func (f *fakeMED) ensure(context.Context, domain.Transaction) (string, error) { return f.status, nil }
func (f *fakeMED) autoContest(context.Context, string) error {
	f.record("auto-contest", "")
	return nil
}
func (f *fakeMED) send(context.Context, string) error {
	f.record("send-defence", "")
	return nil
}
func (f *fakeMED) closeDefence(context.Context, string) error {
	f.record("close-defence", "")
	return nil
}
func (f *fakeMED) resolve(_ context.Context, in activities.ResolveMEDInput) error {
	f.record("resolve", in.Status)
	return nil
}

// medEnv is a dispute opened now against a PIX paid now (so its defence
// deadline is in 6 days and its return limit in 90).
func medEnv(t *testing.T, autoContest bool) (*testsuite.TestWorkflowEnvironment, *fakeMED, MEDInput) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	now := env.Now()
	f := &fakeMED{env: env, start: now, status: med.MedOpen}
	env.RegisterActivityWithOptions(f.ensure, activity.RegisterOptions{Name: actName(medActs.EnsureMED)})
	env.RegisterActivityWithOptions(f.autoContest, activity.RegisterOptions{Name: actName(medActs.AutoContestMED)})
	env.RegisterActivityWithOptions(f.send, activity.RegisterOptions{Name: actName(medActs.SendMEDDefence)})
	env.RegisterActivityWithOptions(f.closeDefence, activity.RegisterOptions{Name: actName(medActs.CloseMEDDefence)})
	env.RegisterActivityWithOptions(f.resolve, activity.RegisterOptions{Name: actName(medActs.ResolveMED)})
	in := MEDInput{MED: domain.Transaction{ID: "med_1", Type: domain.TypeMED, Status: med.MedOpen, Amount: 6_000,
		Details: domain.SomeJSON(domain.Details{Med: &domain.MedBlock{DepositID: "dep_1", AutoContest: autoContest,
			DefenceDeadline: domain.NewTime(now.Add(med.MedDefenceWindow)), ExpiresAt: domain.NewTime(now.Add(med.MedReturnLimit))}})}}
	return env, f, in
}

func (f *fakeMED) want(t *testing.T, want ...medCall) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) != len(want) {
		t.Fatalf("calls %+v, want %+v", f.calls, want)
	}
	for i := range want {
		if f.calls[i] != want[i] {
			t.Errorf("call %d = %+v, want %+v", i, f.calls[i], want[i])
		}
	}
}

func medNotice(id, status string) processor.MEDNotice {
	return processor.MEDNotice{MEDID: id, InfractionID: "inf_1", Status: status}
}

func wantResult(t *testing.T, env *testsuite.TestWorkflowEnvironment, want string) {
	t.Helper()
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("completed %v, error %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	var got string
	if err := env.GetWorkflowResult(&got); err != nil || got != want {
		t.Fatalf("result %q (%v), want %q", got, err, want)
	}
}

// TestMEDWorkflowDeadlines: with no defence and no decision, the defence
// deadline (6 days) moves the dispute UNDER_REVIEW and the return limit
// (90 days after the PIX) expires it, each on its durable timer.
func TestMEDWorkflowDeadlines(t *testing.T) {
	env, f, in := medEnv(t, false)
	env.ExecuteWorkflow(MEDWorkflow, in)
	wantResult(t, env, med.MedExpired)
	f.want(t,
		medCall{"close-defence", med.MedDefenceWindow, ""},
		medCall{"send-defence", med.MedDefenceWindow, ""},
		medCall{"resolve", med.MedReturnLimit, med.MedExpired})
}

// TestMEDWorkflowEvidenceThenDecision: the merchant's evidence (a signal)
// is forwarded when it arrives; the processor's decision ends the dispute
// before the deadline; a notice naming another dispute is ignored.
func TestMEDWorkflowEvidenceThenDecision(t *testing.T) {
	env, f, in := medEnv(t, false)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(MEDEvidenceSignal, MEDEvidence{MEDID: "med_1"})
	}, 24*time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(NoticeSignal, medNotice("med_other", med.MedAccepted))
	}, 48*time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(NoticeSignal, medNotice("med_1", med.MedRejected))
	}, 72*time.Hour)
	env.ExecuteWorkflow(MEDWorkflow, in)
	wantResult(t, env, med.MedRejected)
	f.want(t, medCall{"send-defence", 24 * time.Hour, ""}, medCall{"resolve", 72 * time.Hour, med.MedRejected})
}

// TestMEDWorkflowAutoContest: with the automatic contest the defence is
// sent at once; the decision after the defence deadline still finds the
// deadline's step (a no-op on an UNDER_REVIEW dispute) before it.
func TestMEDWorkflowAutoContest(t *testing.T) {
	env, f, in := medEnv(t, true)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(NoticeSignal, medNotice("med_1", med.MedAccepted))
	}, med.MedAnalysisWindow)
	env.ExecuteWorkflow(MEDWorkflow, in)
	wantResult(t, env, med.MedAccepted)
	f.want(t,
		medCall{"auto-contest", 0, ""}, medCall{"send-defence", 0, ""},
		medCall{"close-defence", med.MedDefenceWindow, ""}, medCall{"send-defence", med.MedDefenceWindow, ""},
		medCall{"resolve", med.MedAnalysisWindow, med.MedAccepted})
}

// TestMEDWorkflowClosedAtStart: a dispute already decided (a workflow
// started again by the sweeper) does nothing.
func TestMEDWorkflowClosedAtStart(t *testing.T) {
	env, f, in := medEnv(t, true)
	f.status = med.MedCanceled
	env.ExecuteWorkflow(MEDWorkflow, in)
	wantResult(t, env, med.MedCanceled)
	f.want(t)
}
