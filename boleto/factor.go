package boleto

import (
	"fmt"
	"time"
)

// The due-date factor counts days from a base date. It reached 9999 on
// 2025-02-21; FEBRABAN restarted it at 1000 on 2025-02-22 (so a factor
// names a date within a window of about 24 years).
var (
	factorBase  = time.Date(1997, 10, 7, 0, 0, 0, 0, time.UTC)
	factorReset = time.Date(2025, 2, 22, 0, 0, 0, 0, time.UTC)
)

// Factor is the due-date factor of the calendar date of due (its year,
// month and day, whatever its location). Dates before 2000-07-03 (factor
// 1000) are refused, as are dates after the new window's factor 9999.
func Factor(due time.Time) (int, error) {
	d := time.Date(due.Year(), due.Month(), due.Day(), 0, 0, 0, 0, time.UTC)
	var f int
	if d.Before(factorReset) {
		f = days(factorBase, d)
	} else {
		f = 1000 + days(factorReset, d)
	}
	if f < 1000 || f > 9999 {
		return 0, fmt.Errorf("boleto: due date %s is outside the factor's window", d.Format(time.DateOnly))
	}
	return f, nil
}

// DueDate is the date a factor names, read in the window that starts on
// 2025-02-22 when after is on or after it (a factor repeats every 9000
// days: the reader picks the window of the boleto's time).
func DueDate(factor int, after time.Time) time.Time {
	if after.Before(factorReset) {
		return factorBase.AddDate(0, 0, factor)
	}
	return factorReset.AddDate(0, 0, factor-1000)
}

func days(from, to time.Time) int { return int(to.Sub(from).Hours() / 24) }
