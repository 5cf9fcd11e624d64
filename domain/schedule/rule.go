package schedule

import (
	"fmt"
	"strings"
	"time"

	"github.com/jangada/jangada/domain"
)

// Intervals of a recurrence rule.
const (
	Daily      = "daily"
	Weekly     = "weekly"
	Monthly    = "monthly"
	CustomDays = "custom_days"
)

// Rule is a recurrence: every day, week (on DayOfWeek, 0 = Sunday), month
// (on DayOfMonth; a day the month lacks means its last day) or CustomDays
// days, at Time (HH:MM) in Timezone.
type Rule struct {
	Interval   string `json:"interval"`
	Time       string `json:"time"`
	Timezone   string `json:"timezone"`
	DayOfWeek  *int   `json:"dayOfWeek,omitempty"`
	DayOfMonth *int   `json:"dayOfMonth,omitempty"`
	CustomDays *int   `json:"customDays,omitempty"`
}

// Validate checks the rule and fills the default time zone. Field names in
// errors are prefixed with prefix ("recurrenceRule.").
func (r *Rule) Validate(prefix string) error {
	if r.Timezone == "" {
		r.Timezone = DefaultTimezone
	}
	if _, err := time.LoadLocation(r.Timezone); err != nil {
		return domain.Invalid(prefix+"timezone", "is not a known IANA time zone (for example America/Sao_Paulo)")
	}
	if _, _, err := r.clock(); err != nil {
		return domain.Invalid(prefix+"time", "must be a local time HH:MM (00:00 to 23:59)")
	}
	switch r.Interval {
	case Daily:
	case Weekly:
		if r.DayOfWeek == nil || *r.DayOfWeek < 0 || *r.DayOfWeek > 6 {
			return domain.Invalid(prefix+"dayOfWeek", "is required with interval weekly: 0 (Sunday) to 6 (Saturday)")
		}
	case Monthly:
		if r.DayOfMonth == nil || *r.DayOfMonth < 1 || *r.DayOfMonth > 31 {
			return domain.Invalid(prefix+"dayOfMonth", "is required with interval monthly: 1 to 31")
		}
	case CustomDays:
		if r.CustomDays == nil || *r.CustomDays < 1 || *r.CustomDays > 3660 {
			return domain.Invalid(prefix+"customDays", "is required with interval custom_days: 1 to 3660 days")
		}
	default:
		return domain.Invalid(prefix+"interval", "must be one of %s", strings.Join(Intervals.Values, ", "))
	}
	return nil
}

// clock parses Time strictly as two-digit HH:MM.
func (r Rule) clock() (hour, minute int, err error) {
	if len(r.Time) != 5 || r.Time[2] != ':' {
		return 0, 0, fmt.Errorf("bad time %q", r.Time)
	}
	t, err := time.Parse("15:04", r.Time)
	if err != nil {
		return 0, 0, err
	}
	return t.Hour(), t.Minute(), nil
}

func (r Rule) location() *time.Location {
	loc, err := time.LoadLocation(r.Timezone)
	if err != nil || r.Timezone == "" {
		loc, _ = time.LoadLocation(DefaultTimezone)
	}
	return loc
}

// Next is the first run of the rule strictly after after. anchor (the
// schedule's creation) fixes where a custom_days cycle starts: its first run
// is the first occurrence of Time after anchor, then every CustomDays days.
// Calendar arithmetic happens in the rule's zone, so a daily 09:00 stays at
// 09:00 local across offset changes.
func (r Rule) Next(after, anchor time.Time) time.Time {
	loc := r.location()
	h, m, _ := r.clock()
	local := after.In(loc)
	y, mo, d := local.Date()
	at := func(y int, mo time.Month, d int) time.Time { return time.Date(y, mo, d, h, m, 0, 0, loc) }
	switch r.Interval {
	case Weekly:
		want := time.Weekday(deref(r.DayOfWeek))
		for i := 0; i <= 7; i++ {
			t := at(y, mo, d+i)
			if t.Weekday() == want && t.After(after) {
				return t
			}
		}
	case Monthly:
		for i := 0; i <= 2; i++ {
			first := time.Date(y, mo+time.Month(i), 1, 0, 0, 0, 0, loc)
			t := at(first.Year(), first.Month(), min(deref(r.DayOfMonth), daysIn(first.Year(), first.Month())))
			if t.After(after) {
				return t
			}
		}
	case CustomDays:
		n := max(deref(r.CustomDays), 1)
		a := anchor.In(loc)
		start := at(a.Year(), a.Month(), a.Day())
		if !start.After(anchor) {
			start = at(a.Year(), a.Month(), a.Day()+1)
		}
		if start.After(after) {
			return start
		}
		// Whole calendar days between the cycle's start and after, in the zone.
		days := int(dayNumber(local) - dayNumber(start.In(loc)))
		k := days / n * n
		for {
			t := at(start.Year(), start.Month(), start.Day()+k)
			if t.After(after) {
				return t
			}
			k += n
		}
	}
	// Daily, and a fallback that cannot be reached with a valid rule.
	t := at(y, mo, d)
	if !t.After(after) {
		t = at(y, mo, d+1)
	}
	return t
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func daysIn(y int, m time.Month) int { return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day() }

// dayNumber counts calendar days of t's local date since the epoch.
func dayNumber(t time.Time) int64 {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}
