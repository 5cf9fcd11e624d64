package pixauto

import (
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
)

// The retry rule: the day after the failure, each attempt on its own day,
// at most three retries, within seven days of the due date, before the
// next cycle and not after the endDate; the first payment never.
func TestRetryDate(t *testing.T) {
	t.Parallel()
	sp := func(day, hhmm string) time.Time {
		at, err := time.ParseInLocation("2006-01-02 15:04", day+" "+hhmm, domain.SaoPaulo)
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	monthly := Authorization{Frequency: Monthly, StartDate: "2026-12-10"}
	weekly := Authorization{Frequency: Weekly, StartDate: "2026-12-10"}
	end := Date("2026-12-12")
	ending := Authorization{Frequency: Monthly, StartDate: "2026-12-10", EndDate: &end}
	cases := []struct {
		name     string
		a        Authorization
		cycle    int
		attempts int
		failedAt time.Time
		want     Date // "" = no retry
	}{
		{"first attempt failed on the due date", monthly, 0, 1, sp("2026-12-10", "07:00"), "2026-12-11"},
		{"failure heard late in the day (São Paulo, after 21:00 UTC)", monthly, 0, 1, sp("2026-12-10", "23:30"), "2026-12-11"},
		{"second attempt failed", monthly, 0, 2, sp("2026-12-11", "02:00"), "2026-12-12"},
		{"third attempt failed", monthly, 0, 3, sp("2026-12-12", "02:00"), "2026-12-13"},
		{"three retries made", monthly, 0, 4, sp("2026-12-13", "02:00"), ""},
		{"failure heard days later", monthly, 0, 1, sp("2026-12-15", "02:00"), "2026-12-16"},
		{"the last day of the window", monthly, 0, 1, sp("2026-12-16", "02:00"), "2026-12-17"},
		{"past the seven days", monthly, 0, 2, sp("2026-12-17", "02:00"), ""},
		{"a later cycle", monthly, 2, 1, sp("2027-02-10", "02:00"), "2027-02-11"},
		{"weekly: the next cycle is due in seven days", weekly, 0, 1, sp("2026-12-16", "02:00"), ""},
		{"weekly: the day before the next cycle", weekly, 0, 1, sp("2026-12-15", "02:00"), "2026-12-16"},
		{"within the endDate", ending, 0, 1, sp("2026-12-11", "02:00"), "2026-12-12"},
		{"after the endDate", ending, 0, 2, sp("2026-12-12", "02:00"), ""},
		{"the first payment", monthly, -1, 1, sp("2026-12-10", "02:00"), ""},
		{"no attempt made", monthly, 0, 0, sp("2026-12-10", "02:00"), ""},
	}
	for _, c := range cases {
		due := DueOf(c.a.StartDate, c.a.Frequency, max(c.cycle, 0))
		got, ok := c.a.RetryDate(c.cycle, due, c.attempts, c.failedAt)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: RetryDate = %q, %v; want %q", c.name, got, ok, c.want)
		}
	}
}
