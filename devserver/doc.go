// Package devserver runs a real Temporal server and the Temporal Web UI inside
// the current process, backed by a SQLite file, so that `make run` needs no
// Docker, no Temporal CLI and no external database while still surviving
// restarts with all workflow history intact.
//
// The wiring mirrors the Temporal CLI's `temporal server start-dev`
// (temporalio/cli internal/devserver), trimmed to what Jangada needs: one
// namespace with pre-registered custom search attributes, a persisted store
// tuned for throughput, and quiet logs.
//
// It is a development tool only: there is no TLS, no auth and a single
// history shard.
package devserver
