package db

import "sync/atomic"

// AuthChangedChannel is the NOTIFY channel on which every change of an
// account or an API key is announced at commit (migration 00028), so that
// each process drops the keys and accounts it keeps (service.Auth).
const AuthChangedChannel = "jangada_auth_changed"

// authGeneration counts the changes of keys and accounts this process has
// learnt of: its own at once, other processes' through AuthChangedChannel.
var authGeneration atomic.Uint64

// AuthGeneration is the count of changes of keys and accounts known to this
// process. A key resolved while it stayed the same is still what the
// database holds, as far as this process can know.
func AuthGeneration() uint64 { return authGeneration.Load() }

// AuthChanged records that a key or an account changed: every key resolved
// before is stale. The writers in this package call it after their commit
// (read-your-writes within a process); the listener of AuthChangedChannel
// calls it for the other processes' changes.
func AuthChanged() { authGeneration.Add(1) }
