package domain

import (
	"database/sql/driver"
	"fmt"
	"time"
	_ "time/tzdata" // America/Sao_Paulo must load on hosts without a zoneinfo database
)

// Time is a timestamp that always serialises as ISO 8601 in UTC with
// milliseconds, whatever the database session's time zone.
type Time struct{ time.Time }

// NewTime wraps t.
//
// It keeps microseconds, what PostgreSQL stores: a time PostgreSQL would
// round (up, across a millisecond) says the same thing in a record made in
// Go, in its event and in the row read back.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Microsecond)} }

// TimePtr wraps t as a pointer, for optional fields.
func TimePtr(t time.Time) *Time { v := NewTime(t); return &v }

// ISO formats t the way every API response does.
func (t Time) ISO() string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// MarshalJSON implements json.Marshaler.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + t.ISO() + `"`), nil
}

// UnmarshalJSON implements json.Unmarshaler (workflow payloads round-trip it).
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*t = Time{}
		return nil
	}
	var v time.Time
	if err := v.UnmarshalJSON(b); err != nil {
		return err
	}
	*t = NewTime(v)
	return nil
}

// Scan implements sql.Scanner.
func (t *Time) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		*t = NewTime(v)
		return nil
	case nil:
		*t = Time{}
		return nil
	}
	return fmt.Errorf("domain.Time: cannot scan %T", src)
}

// Value implements driver.Valuer.
func (t Time) Value() (driver.Value, error) {
	if t.IsZero() {
		return nil, nil
	}
	return t.UTC(), nil
}

// SaoPaulo is Brasília time: the zone of due dates, limit periods and
// every date a merchant or payer reads.
var SaoPaulo = func() *time.Location {
	l, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		panic(err)
	}
	return l
}()

// Today is the date of now in America/Sao_Paulo, as a date at 00:00 UTC.
func Today(now time.Time) time.Time {
	y, m, d := now.In(SaoPaulo).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
