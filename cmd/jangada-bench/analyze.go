//go:build devserver

package main

import (
	"context"
	"fmt"
)

// analyze refreshes the planner's statistics of the rig's database on the
// money rows (r.analyzeRounds), as autovacuum does in production once a
// table has changed by a tenth; on the other rows it does nothing.
//
// A PostgreSQL run without autovacuum, like this machine's, never analyzes
// the bench's fresh tables, and a statement a connection prepares on a
// nearly empty table keeps the plan it got then. With no statistics, the
// look for an earlier sub-account move by its externalReference costs the
// same through the (account, type) index as through the unique one, and
// some connections kept the former: a scan of every move of the account,
// longer with each move. Statements planned again after an analysis see
// the rows the rounds wrote, as a production database's do.
//
// Only the money rows do it (rig.analyzeRounds): their rounds are hundreds
// of moves, so each connection's one new plan after an analysis is lost
// in them. A row of fifty requests at concurrency 1 (pay → WebSocket)
// would pay a new plan on a good share of its requests, on Jangada's side
// only: its baseline runs no statement of ours.
func (r *rig) analyze(ctx context.Context) {
	if !r.analyzeRounds || r.db == nil {
		return
	}
	if _, err := r.db.ExecContext(ctx, `ANALYZE`); err != nil {
		fmt.Printf("  (analyze: %v)\n", err)
	}
}
