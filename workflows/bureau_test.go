package workflows

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain/bureau"
	"github.com/jangada/jangada/processor"
)

var bureauActs *activities.Bureau

// dunningEnv runs a dunning over fake activities that record the notice
// they concluded with.
func dunningEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *[]processor.DunningNotice) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var concluded []processor.DunningNotice
	env.RegisterActivityWithOptions(func(_ context.Context, id string) (bureau.Dunning, error) {
		return bureau.Dunning{ID: id, Status: bureau.DunningAwaitingApproval}, nil
	}, activity.RegisterOptions{Name: actName(bureauActs.SubmitDunning)})
	env.RegisterActivityWithOptions(func(_ context.Context, n processor.DunningNotice) (bureau.Dunning, error) {
		concluded = append(concluded, n)
		status := bureau.DunningProcessed
		if n.Outcome == processor.OutcomeDenied {
			status = bureau.DunningDenied
		}
		return bureau.Dunning{ID: n.DunningID, Status: status}, nil
	}, activity.RegisterOptions{Name: actName(bureauActs.ConcludeDunning)})
	return env, &concluded
}

// The bureau's answer, days later, concludes the dunning; a notice naming
// another dunning, or an unfinished one, is ignored.
func TestDunningWaitsForTheBureau(t *testing.T) {
	for _, outcome := range []string{processor.OutcomeProcessed, processor.OutcomeDenied} {
		t.Run(outcome, func(t *testing.T) {
			env, concluded := dunningEnv(t)
			env.RegisterDelayedCallback(func() {
				env.SignalWorkflow(NoticeSignal, processor.DunningNotice{DunningID: "dun_other", Outcome: processor.OutcomeProcessed})
				env.SignalWorkflow(NoticeSignal, processor.DunningNotice{DunningID: "dun_1", Outcome: "analysing"})
			}, 24*time.Hour)
			env.RegisterDelayedCallback(func() {
				env.SignalWorkflow(NoticeSignal, processor.DunningNotice{DunningID: "dun_1", Outcome: outcome, Reason: "r"})
			}, 72*time.Hour)
			env.ExecuteWorkflow(DunningWorkflow, DunningInput{Dunning: bureau.Dunning{ID: "dun_1", Status: bureau.DunningPending}})
			want := bureau.DunningProcessed
			if outcome == processor.OutcomeDenied {
				want = bureau.DunningDenied
			}
			if got := result(t, env); got != want {
				t.Fatalf("status %s, want %s", got, want)
			}
			if len(*concluded) != 1 || (*concluded)[0].DunningID != "dun_1" || (*concluded)[0].Outcome != outcome {
				t.Fatalf("concluded with %+v", *concluded)
			}
		})
	}
}
