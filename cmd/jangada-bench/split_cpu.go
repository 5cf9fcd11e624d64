//go:build devserver

package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jangada/jangada/internal/procs"
)

// The split's CPU per operation: what one create costs each kind of
// process of the production shape (the Temporal server or cluster nodes,
// the api, the workers, PostgreSQL), read from /proc around a batch of
// creates alone (no bare start in between).

// splitCPU is CPU time so far, by kind of process.
type splitCPU map[string]time.Duration

// cpuKinds is the order the kinds are printed in.
var cpuKinds = []string{"temporal", "api", "worker", "postgres"}

// readSplitCPU reads every process of the split and PostgreSQL's: on a
// private server its postmaster and backends alone, on the shared one
// every postgres process of the machine (readCPU).
func readSplitCPU(ctx context.Context, s *procs.Split) splitCPU {
	u := splitCPU{"postgres": readCPU().pg}
	add := func(kind string, ps ...*procs.Proc) {
		for _, p := range ps {
			if p != nil {
				u[kind] += sampleProc(ctx, p).cpu
			}
		}
	}
	if s.Cluster != nil {
		add("temporal", s.Cluster.Nodes...)
	} else {
		add("temporal", s.Temporal)
	}
	add("api", s.APIs...)
	add("worker", s.Workers...)
	return u
}

// cpuPerOp runs n operations of op at concurrency c and answers each kind's
// CPU per operation.
func cpuPerOp(ctx context.Context, s *procs.Split, name string, c, n int, op func(context.Context, int) error) (splitCPU, result) {
	before := readSplitCPU(ctx, s)
	res := run(ctx, name, c, n, op)
	after := readSplitCPU(ctx, s)
	per := splitCPU{}
	done := max(n-res.errors, 1)
	for k, v := range after {
		per[k] = (v - before[k]) / time.Duration(done)
	}
	return per, res
}

// String is the kinds' CPU per operation in milliseconds.
func (u splitCPU) String() string {
	var parts []string
	var total time.Duration
	for _, k := range cpuKinds {
		parts = append(parts, fmt.Sprintf("%s %.2f", k, float64(u[k])/float64(time.Millisecond)))
		total += u[k]
	}
	return strings.Join(parts, ", ") + fmt.Sprintf(" (all %.2f ms)", float64(total)/float64(time.Millisecond))
}
