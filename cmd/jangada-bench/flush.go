//go:build devserver

package main

import (
	"fmt"
	"net/url"
	"time"
)

// flushParams adds to a database URL the run-time parameters that make
// every commit on its connections wait flush before PostgreSQL flushes the
// WAL (commit_delay, with no sibling required), as a commit waits for
// network storage; this machine's local disk flushes in about 0.1 ms. A
// bare transaction on a hot row holds the row's lock across that wait; a
// group commit's batch holds it once for all its moves. Both lib/pq and
// pgx send unknown URL parameters to the server as run-time parameters.
func flushParams(raw string, flush time.Duration) (string, error) {
	if flush <= 0 {
		return raw, nil
	}
	if flush > time.Second/10 {
		return "", fmt.Errorf("-commit-flush %s: PostgreSQL's commit_delay stops at 100ms", flush)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("commit_delay", fmt.Sprint(flush.Microseconds()))
	q.Set("commit_siblings", "0")
	u.RawQuery = q.Encode()
	return u.String(), nil
}
