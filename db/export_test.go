package db

import "context"

// LockedPart exposes lockedPart to the package's external tests.
var LockedPart = lockedPart

// PostBatch exposes postBatch (one batch of the group commit) to the
// package's external tests.
var PostBatch = postBatch

// HoldBatches makes g's batches wait for release before they run (and
// counts their sizes), so a test can have moves queue behind one batch.
func HoldBatches(g *GroupCommit, release <-chan struct{}, sizes chan<- int) {
	g.run = func(ctx context.Context, moves []PostedMove) ([]PostedOutcome, error) {
		sizes <- len(moves)
		<-release
		return postBatch(ctx, g.DB, moves)
	}
}

// Queued is how many moves wait in g's queue.
func Queued(g *GroupCommit) int { return len(g.queue) }

// SignalQueued makes g send on the channel it returns each time a move
// enters its queue.
func SignalQueued(g *GroupCommit, capacity int) <-chan struct{} {
	ch := make(chan struct{}, capacity)
	g.queued = func() { ch <- struct{}{} }
	return ch
}
