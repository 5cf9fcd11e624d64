// Package poll is how tests wait for something that happens in the
// background: they poll a condition with a deadline, never sleep a fixed
// time, so a slow machine makes a test slower, not red.
package poll

import (
	"testing"
	"time"
)

// Until polls cond until it holds and fails tb if it still does not after
// within. It polls often enough for short waits (every within/400, at
// least 5 ms) and at most every 50 ms, so that long waits on conditions
// that cost a request do not load the system they watch.
func Until(tb testing.TB, within time.Duration, what string, cond func() bool) {
	tb.Helper()
	tick := time.NewTicker(min(max(within/400, 5*time.Millisecond), 50*time.Millisecond))
	defer tick.Stop()
	deadline := time.After(within)
	for !cond() {
		select {
		case <-deadline:
			tb.Fatalf("timed out after %v waiting for %s", within, what)
		case <-tick.C:
		}
	}
}
