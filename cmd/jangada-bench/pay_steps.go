//go:build devserver

package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/history/v1"

	"github.com/jangada/jangada/workflows"
)

// stepTimes are the moments one signalled path passed, all on this
// machine's clock: the caller's, Temporal's history and PostgreSQL's.
type stepTimes struct {
	began, signalled, taskStarted, taskCompleted time.Time
	// work is when the path's own work began: the settle's transaction
	// (payment.paid's created_at, PostgreSQL's now()) or the bare activity.
	work time.Time
	// seen is when the caller saw the outcome (the frame; for the bare
	// path, the activity's start).
	seen time.Time
}

// stepRow names one step of the breakdown and how to read it.
type stepRow struct {
	name     string
	from, to func(stepTimes) time.Time
}

// paySteps prints, step by step, where pay → WebSocket's and the bare
// signal → activity's time goes (the median over the paths measured), so
// that the gap between the two rows is read from each run, not guessed.
func paySteps(ours, bare []stepTimes) { stepsTable("pay → WS", "bare", ours, bare) }

// stepsTable prints the step medians of two sets of paths side by side,
// under the column names a and b.
func stepsTable(a, b string, ours, bare []stepTimes) {
	rows := []stepRow{
		{"call → signal recorded (HTTP, key, reads; the RPC)", func(s stepTimes) time.Time { return s.began }, func(s stepTimes) time.Time { return s.signalled }},
		{"signal recorded → workflow task started (dispatch)", func(s stepTimes) time.Time { return s.signalled }, func(s stepTimes) time.Time { return s.taskStarted }},
		{"task started → work began (SDK; settle's BEGIN or activity)", func(s stepTimes) time.Time { return s.taskStarted }, func(s stepTimes) time.Time { return s.work }},
		{"work began → seen (settle, tail, frame)", func(s stepTimes) time.Time { return s.work }, func(s stepTimes) time.Time { return s.seen }},
		{"task started → task completed", func(s stepTimes) time.Time { return s.taskStarted }, func(s stepTimes) time.Time { return s.taskCompleted }},
		{"whole path", func(s stepTimes) time.Time { return s.began }, func(s stepTimes) time.Time { return s.seen }},
	}
	fmt.Printf("  %-62s %12s %12s\n", "where the time goes (median ms)", a, b)
	for _, row := range rows {
		fmt.Printf("  %-62s %12s %12s\n", row.name, medianStep(ours, row), medianStep(bare, row))
	}
}

// medianStep is the median of one step over paths, or "-" when none has
// both ends.
func medianStep(paths []stepTimes, row stepRow) string {
	var d []time.Duration
	for _, p := range paths {
		from, to := row.from(p), row.to(p)
		if !from.IsZero() && !to.IsZero() {
			d = append(d, to.Sub(from))
		}
	}
	if len(d) == 0 {
		return "-"
	}
	slices.Sort(d)
	return fmt.Sprintf("%.2f", ms(d[len(d)/2]))
}

// historySteps fills a path's moments from its workflow's history: the
// first signal, and the first workflow task started and completed after it.
func (r *rig) historySteps(ctx context.Context, workflowID string, s *stepTimes) error {
	it := r.client.GetWorkflowHistory(ctx, workflowID, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			return err
		}
		at := eventTime(e)
		switch e.GetEventType() {
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
			if s.signalled.IsZero() {
				s.signalled = at
			}
		case enums.EVENT_TYPE_WORKFLOW_TASK_STARTED:
			if !s.signalled.IsZero() && s.taskStarted.IsZero() {
				s.taskStarted = at
			}
		case enums.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			if !s.taskStarted.IsZero() && s.taskCompleted.IsZero() {
				s.taskCompleted = at
			}
		}
	}
	return nil
}

func eventTime(e *history.HistoryEvent) time.Time { return e.GetEventTime().AsTime() }

// paidSteps reads the moments of the charges the row paid: their histories
// and their settle's transaction start.
func (r *rig) paidSteps(ctx context.Context, ids []string, began []time.Time, w *wsWatcher) []stepTimes {
	var out []stepTimes
	for i, id := range ids {
		s := stepTimes{began: began[i]}
		if err := r.historySteps(ctx, workflows.ChargeWorkflowID(id), &s); err != nil {
			continue
		}
		// now() of the settle's transaction: when its BEGIN ran.
		_ = r.db.GetContext(ctx, &s.work, `SELECT created_at FROM events WHERE resource_id = $1 AND type = 'payment.paid'`, id)
		s.seen, _ = w.seenAt(id)
		out = append(out, s)
	}
	return out
}

// bareSteps reads the moments of the bare paths: their histories, and the
// activity's start as the caller saw it (work and seen are the same).
func (r *rig) bareSteps(ctx context.Context, ids []string, began, started []time.Time) []stepTimes {
	var out []stepTimes
	for i, id := range ids {
		s := stepTimes{began: began[i], work: started[i], seen: started[i]}
		if r.historySteps(ctx, id, &s) != nil {
			continue
		}
		out = append(out, s)
	}
	return out
}
