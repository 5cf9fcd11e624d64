package main

import (
	"context"
	"fmt"
	"syscall"
	"time"

	"github.com/jangada/jangada/internal/procs"
)

// shardMoveWithin bounds how long the cluster may take to hand a dead
// node's shards to the others, or to give a restarted node its share back
// (membership notices a dead node within seconds; a shard's new owner
// takes it after the old owner's lease, fenced by its range id).
const shardMoveWithin = 90 * time.Second

// killNode is the cluster's fault: Temporal node 2 (the one api-2 and
// worker-2 dial, so clients lose their frontend too, not only shards move)
// gets SIGKILL mid-load; once the survivors own every
// shard it is started again and waited until it owns shards again. The
// moves are lines of the timeline, with the membership seen through node
// 1's admin API; a move that does not happen within shardMoveWithin is a
// fault error, failing the soak.
//
// It returns the moves and when the node was gone: a node's death loses the
// activity completions in flight through it, as a worker's does, so a
// webhook posted again after it is the same at-least-once case.
func (r *rig) killNode(do func(string, func() error), began time.Time) ([]fault, time.Time) {
	c := r.split.Cluster
	n, survivor := c.Nodes[1], c.Frontends[0]
	var moves []fault
	watch := func(what string, cond func(procs.ClusterView) bool) {
		start := time.Now()
		var v procs.ClusterView
		err := waitFor(context.Background(), shardMoveWithin, func() bool {
			var err error
			v, err = procs.Describe(context.Background(), survivor)
			if err == nil && cond(v) {
				return true
			}
			pause(context.Background(), 250*time.Millisecond)
			return false
		})
		moves = append(moves, fault{at: start.Sub(began), took: time.Since(start), what: what + ": " + v.String(), err: err})
	}
	var killed time.Time
	do(fmt.Sprintf("SIGKILL %s (pid %d)", n.Name, n.Pid()), func() error {
		err := n.Signal(syscall.SIGKILL, 10*time.Second)
		killed = time.Now()
		return err
	})
	watch("shards moved to the survivors", func(v procs.ClusterView) bool {
		owned := 0
		for _, k := range v.Shards {
			owned += k
		}
		return v.Rings["history"] == len(c.Nodes)-1 && owned == r.shards && len(v.Shards) == len(c.Nodes)-1
	})
	do("restart "+n.Name+" (start, frontend healthy)", func() error {
		if err := n.Start(); err != nil {
			return err
		}
		return procs.WaitNode(context.Background(), n)
	})
	watch("shards back on every node", func(v procs.ClusterView) bool {
		owned := 0
		for _, k := range v.Shards {
			if k == 0 {
				return false
			}
			owned += k
		}
		return v.Rings["history"] == len(c.Nodes) && len(v.Shards) == len(c.Nodes) && owned == r.shards
	})
	return moves, killed
}
