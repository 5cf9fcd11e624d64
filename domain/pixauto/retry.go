package pixauto

import "time"

// Retries of a failed debit, from the BCB's Pix Automático rules: when the
// recurrence's retry policy allows them (every recurrence Jangada creates
// carries the "3 retries in 7 days" policy, the BCB's PERMITE_3R_7D), the
// receiver may ask the payer's institution for new attempts after a debit
// failed on its due date: at most MaxRetries of them, each on a different
// day, asked for by the day before it, within RetryWindowDays calendar days
// after the due date and before the next cycle's due date.
const (
	MaxRetries      = 3
	RetryWindowDays = 7
)

// RetryDate is the day of the next attempt of cycle's instruction due on
// due, whose attempts so far (the failed one included) number attempts and
// whose last one failed at failedAt; false when the rules leave none. It is
// the São Paulo day after the failure (a retry is asked for by the day
// before it, and no two attempts share a day), if that day is no later
// than RetryWindowDays after due, before the next cycle's due date and not
// after the authorization's endDate (the consent ends with it). The first
// payment (cycle -1) is paid with the consent QR and never retried.
func (a Authorization) RetryDate(cycle int, due Date, attempts int, failedAt time.Time) (Date, bool) {
	if cycle < 0 || attempts < 1 || attempts > MaxRetries {
		return "", false
	}
	next := Today(failedAt).AddDays(1)
	if next.Before(due.AddDays(1)) {
		next = due.AddDays(1)
	}
	switch {
	case due.AddDays(RetryWindowDays).Before(next):
		return "", false
	case !next.Before(DueOf(a.StartDate, a.Frequency, cycle+1)):
		return "", false
	case a.EndDate != nil && a.EndDate.Before(next):
		return "", false
	}
	return next, true
}
