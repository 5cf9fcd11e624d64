package workflows

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/pixauto"
	"github.com/jangada/jangada/processor"
)

// An execution recorded before lateNoticesChange (DefaultVersion) keeps
// the rules its history was written with: a first debit sent the day
// after its due date is failed at once (its grace ran from the due date),
// and a paid notice of that instruction, no longer open, is discarded, not
// sent to SettleInstruction. (Version 1 awaits it a full day and books the
// payment: TestPixAutomaticLateSentDebitAwaitedFromItsOwnDay.)
func TestPixAutomaticBeforeLateNoticesChangeKeepsOldRules(t *testing.T) {
	env, f := pixEnv(oneCycle())
	env.OnGetVersion(lateNoticesChange, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	var settles atomic.Int32
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		if info.ActivityType.Name == actName(pixActs.SettleInstruction) {
			settles.Add(1)
		}
	})
	env.SetStartTime(time.Date(2026, 12, 11, 9, 0, 0, 0, saoPaulo))
	f.a.Status = pixauto.StatusActive
	id := activities.InstructionID("pa1", 0)
	f.instr[id] = &domain.Transaction{ID: id, Type: domain.TypePixAutomatic, Status: pixauto.InstructionScheduled, Amount: 4990,
		FeeAmount: 50, NetAmount: 4940, Details: domain.SomeJSON(domain.Details{PixAutomatic: &domain.PixAutomaticDetails{
			AuthorizationID: "pa1", DueDate: "2026-12-10"}})}
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(InstructionSignal, processor.InstructionNotice{InstructionID: id, Attempt: 1, Outcome: processor.OutcomePaid, EndToEndID: "E2"})
	}, 3*time.Hour)
	env.ExecuteWorkflow(AuthorizationWorkflow, AuthorizationInput{Authorization: f.a, NextCycle: 1,
		Open: []OpenInstruction{{ID: id, DueDate: "2026-12-10"}}, Continued: true})
	if got := result(t, env); got != pixauto.StatusExpired {
		t.Fatalf("status %s", got)
	}
	if sent := f.sent[id]; !slices.Equal(sent, []string{"2026-12-11 09:00"}) {
		t.Errorf("sent at %v, want once, on 12-11 at 09:00", sent)
	}
	if f.status(id) != pixauto.InstructionFailed || f.credits != 0 || settles.Load() != 1 {
		t.Errorf("instruction %s credits %d settles %d, want FAILED at once, nothing credited, the paid notice discarded (1 settle)",
			f.status(id), f.credits, settles.Load())
	}
}
