package money

// Error is returned by every parser in this package. Its message is phrased
// to follow a field name ("amount must be a number, not a string") so the
// API layer can prefix it without rewording.
type Error struct {
	msg string
}

// Error returns only the reason, with no prefix, for the caller to put a
// field name in front.
func (e *Error) Error() string { return e.msg }

// Sentinel parse errors. They are *Error values, so callers can match them
// with errors.Is or catch the whole family with errors.As.
var (
	// ErrNotNumber rejects anything that is not a JSON number (true, {}, "").
	ErrNotNumber = &Error{msg: "must be a number"}
	// ErrString rejects quoted numbers: accepting "10.50" would hide client
	// bugs that send amounts through string formatting.
	ErrString = &Error{msg: "must be a number, not a string"}
	// ErrNull rejects null because a missing amount must never read as zero.
	ErrNull = &Error{msg: "must be a number, not null"}
	// ErrPrecision rejects values that would need rounding to fit.
	ErrPrecision = &Error{msg: "must be a number with at most two decimal places"}
	// ErrRange rejects magnitudes above 10^15 units, far beyond any real
	// payment, which keeps every intermediate product inside 128 bits.
	ErrRange = &Error{msg: "must be between -1000000000000000 and 1000000000000000"}
)
