package workflows

import (
	"context"
	"sync/atomic"
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/domain/pixauto"
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
	id := runLateSentDebit(t, env, f)
	if f.status(id) != pixauto.InstructionFailed || f.credits != 0 || settles.Load() != 1 {
		t.Errorf("instruction %s credits %d settles %d, want FAILED at once, nothing credited, the paid notice discarded (1 settle)",
			f.status(id), f.credits, settles.Load())
	}
}
