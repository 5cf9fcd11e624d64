package pixauto

import (
	"time"

	"github.com/jangada/jangada/domain"
)

// The BCB's scheduling window: the receiver sends an instruction to the
// payer's institution from 10 to 2 days before its due date.
const (
	MinDaysAhead = 2
	MaxDaysAhead = 10
)

// ChargeGrace is how long after the start of its due date an instruction
// submitted to the payer's institution waits for the debit's outcome
// before it is recorded as failed.
const ChargeGrace = 24 * time.Hour

// Date is a calendar day, YYYY-MM-DD.
type Date string

const dateLayout = "2006-01-02"

// ParseDate checks a YYYY-MM-DD day.
func ParseDate(s string) (Date, bool) {
	t, err := time.Parse(dateLayout, s)
	if err != nil || t.Format(dateLayout) != s {
		return "", false
	}
	return Date(s), true
}

// day is d as midnight UTC, for calendar arithmetic.
func (d Date) day() time.Time {
	t, _ := time.Parse(dateLayout, string(d))
	return t
}

// Start is the instant the day begins in São Paulo: when the payer's bank
// debits an instruction due that day.
func (d Date) Start() time.Time {
	t := d.day()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, domain.SaoPaulo).UTC()
}

// AddDays is the day n days later.
func (d Date) AddDays(n int) Date { return Date(d.day().AddDate(0, 0, n).Format(dateLayout)) }

// Before reports whether d comes before e.
func (d Date) Before(e Date) bool { return d < e } // YYYY-MM-DD sorts as it reads

// Today is the São Paulo calendar day at instant now.
func Today(now time.Time) Date { return Date(now.In(domain.SaoPaulo).Format(dateLayout)) }

// DaysAhead is how many São Paulo calendar days d lies after now's day.
func DaysAhead(now time.Time, d Date) int {
	return int(d.day().Sub(Today(now).day()).Hours() / 24)
}

// stepMonths is the length of a frequency in months (0 for WEEKLY).
func stepMonths(freq string) int {
	switch freq {
	case Monthly:
		return 1
	case Quarterly:
		return 3
	case Semiannually:
		return 6
	case Yearly:
		return 12
	}
	return 0
}

// DueOf is the due date of cycle n (from 0) of a recurrence starting on
// start: start plus n periods. A monthly recurrence started on the 31st
// falls on the last day of shorter months (and back on the 31st after).
func DueOf(start Date, freq string, n int) Date {
	s := start.day()
	if freq == Weekly {
		return Date(s.AddDate(0, 0, 7*n).Format(dateLayout))
	}
	months := int(s.Month()) - 1 + n*stepMonths(freq)
	y, m := s.Year()+months/12, time.Month(months%12+1)
	last := time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return Date(time.Date(y, m, min(s.Day(), last), 0, 0, 0, 0, time.UTC).Format(dateLayout))
}

// CycleOf is the cycle whose period holds day d (d on or after start): the
// last n with DueOf(n) ≤ d. One instruction is charged per cycle.
func CycleOf(start Date, freq string, d Date) int {
	if d.Before(start) {
		return -1
	}
	var n int
	if freq == Weekly {
		n = int(d.day().Sub(start.day()).Hours()/24) / 7
	} else {
		s, t := start.day(), d.day()
		n = ((t.Year()-s.Year())*12 + int(t.Month()) - int(s.Month())) / stepMonths(freq)
	}
	for n > 0 && d.Before(DueOf(start, freq, n)) {
		n--
	}
	for !d.Before(DueOf(start, freq, n+1)) {
		n++
	}
	return n
}
