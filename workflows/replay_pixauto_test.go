package workflows

import (
	"path/filepath"
	"testing"

	"go.temporal.io/sdk/worker"
)

// Histories recorded by the PIX automatic workflow of before commit
// d7e0c0d (testdata/before-late-notices: the workflow of its parent run
// on temporaltest with fake activities and the SDK's plain data converter,
// the histories dumped as JSON) replay with today's code: an attempt 1
// sent the day after its due date, failed at once as unanswered, then its
// paid notice discarded; a paid instruction's repeated paid notice
// discarded. Unguarded, today's code would wait a day for the first and
// send the notices to SettleInstruction, commands those histories lack (a
// nondeterminism error: the workflow stuck); behind
// workflow.GetVersion(lateNoticesChange), read as DefaultVersion there,
// they decide as they did.
func TestPixAutomaticHistoriesFromBeforeLateNoticesReplay(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "before-late-notices", "*.json"))
	if err != nil || len(files) != 2 {
		t.Fatalf("histories %v, %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflow(AuthorizationWorkflow)
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, f); err != nil {
				t.Fatalf("replay %s: %v", f, err)
			}
		})
	}
}
