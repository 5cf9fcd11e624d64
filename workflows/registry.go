package workflows

import "slices"

var hosted []any

// host adds workflows to those the money worker runs. Each product's file
// hosts its own (TestEveryWorkflowIsHosted, in package worker, fails for a
// workflow function that is not), so the worker names no product.
func host(workflows ...any) bool {
	hosted = append(hosted, workflows...)
	return true
}

// Hosted lists the workflows the money worker runs: every product's but
// webhook delivery, which runs on its own task queue and worker.
func Hosted() []any { return slices.Clone(hosted) }
