package domain

import (
	"testing"
	"time"
)

// A time keeps the microseconds PostgreSQL stores and drops the rest, so
// that a record made in Go says what its row will say (PostgreSQL rounds:
// 0.3 µs before a millisecond it stores the next one).
func TestNewTimeKeepsWhatPostgreSQLStores(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   time.Time
		want string
	}{
		{time.Date(2026, 11, 28, 10, 0, 0, 999_999_700, time.UTC), "2026-11-28T10:00:00.999999Z"},
		{time.Date(2026, 11, 28, 7, 0, 0, 123_456_789, time.FixedZone("BRT", -3*3600)), "2026-11-28T10:00:00.123456Z"},
	} {
		got := NewTime(tc.in)
		if s := got.Format(time.RFC3339Nano); s != tc.want {
			t.Errorf("NewTime(%v) = %s, want %s", tc.in, s, tc.want)
		}
		if p := TimePtr(tc.in); !p.Equal(got.Time) {
			t.Errorf("TimePtr(%v) = %v, want %v", tc.in, p, got)
		}
	}
}
