package workflows

import (
	"path/filepath"
	"testing"

	"go.temporal.io/sdk/worker"
)

// Histories recorded by the code from before signals named their
// resource (testdata/before-addressed: the workflows of commit 156b99c
// run by a throwaway program on temporaltest, with fake activities and the
// SDK's plain data converter, their histories dumped as JSON) replay with today's code
// without a nondeterminism error: a charge paid by an id-less notice, a
// charge still waiting at the upgrade, a held PIX out approved by the bare
// "approve" (after an object decision it dropped) and settled by an
// id-less notice, a refund settled by one, a schedule run by a run-now
// update with no argument. The new checks are behind
// workflow.GetVersion(addressedChange), which those histories read as
// DefaultVersion: they decide as they did.
func TestHistoriesFromBeforeAddressedSignalsReplay(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "before-addressed", "*.json"))
	if err != nil || len(files) != 5 {
		t.Fatalf("histories %v, %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			for _, wf := range []any{ChargeWorkflow, TransferWorkflow, RefundWorkflow, ScheduleWorkflow} {
				r.RegisterWorkflow(wf)
			}
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, f); err != nil {
				t.Fatalf("replay %s: %v", f, err)
			}
		})
	}
}
