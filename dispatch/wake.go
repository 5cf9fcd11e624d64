package dispatch

import "time"

// DefaultPollInterval is how often an outbox reader looks without being
// woken: NOTIFY is lost while a listener reconnects, so polling is the
// guarantee and NOTIFY only the fast path.
const DefaultPollInterval = time.Second

// pollEvery is the configured poll interval, or the default.
func pollEvery(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultPollInterval
	}
	return d
}

// signal wakes a reader without blocking; one pending signal is enough.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
