package money

import (
	"bytes"
	"strings"
)

// maxHundredths is 10^15 whole units expressed in hundredths.
const maxHundredths = 100_000_000_000_000_000

// expClamp bounds the parsed exponent; anything larger already overflows or
// loses precision, and clamping keeps the scale arithmetic free of overflow.
const expClamp = 1_000_000_000_000

// parseHundredths reads a number in JSON grammar and returns it multiplied
// by 100, exactly. Working on the decimal digits (instead of float64 or
// strconv.ParseFloat) is what lets 10.100 pass and 10.001 fail.
func parseHundredths(s string) (int64, error) {
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}

	intStart := i
	if i < len(s) && s[i] == '0' {
		i++ // JSON forbids leading zeros, so "0" stands alone.
	} else {
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i == intStart {
		return 0, ErrNotNumber
	}
	intPart := s[intStart:i]

	var frac string
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return 0, ErrNotNumber
		}
		frac = s[start:i]
	}

	var exp int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		expNeg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		start := i
		for i < len(s) && isDigit(s[i]) {
			if exp < expClamp {
				exp = exp*10 + int64(s[i]-'0')
			}
			i++
		}
		if i == start {
			return 0, ErrNotNumber
		}
		if expNeg {
			exp = -exp
		}
	}
	if i != len(s) {
		return 0, ErrNotNumber
	}

	// value*100 = mantissa * 10^scale
	mant := strings.TrimLeft(intPart+frac, "0")
	scale := exp - int64(len(frac)) + 2
	trimmed := strings.TrimRight(mant, "0")
	scale += int64(len(mant) - len(trimmed))
	mant = trimmed
	if mant == "" {
		return 0, nil // zero in any spelling, including -0 and 0e-999
	}
	if scale < 0 {
		return 0, ErrPrecision
	}
	if int64(len(mant))+scale > 18 {
		return 0, ErrRange
	}
	var v uint64
	for j := 0; j < len(mant); j++ {
		v = v*10 + uint64(mant[j]-'0')
	}
	for ; scale > 0; scale-- {
		v *= 10
	}
	if v > maxHundredths {
		return 0, ErrRange
	}
	if neg {
		return -int64(v), nil
	}
	return int64(v), nil
}

// parseJSONHundredths classifies the raw JSON value first so that strings
// and null get an error that tells the client what it actually sent.
func parseJSONHundredths(b []byte) (int64, error) {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return 0, ErrNotNumber
	case b[0] == '"':
		return 0, ErrString
	case string(b) == "null":
		return 0, ErrNull
	}
	return parseHundredths(string(b))
}

// formatHundredths renders v/100 with exactly two decimals. It goes through
// uint64 so that math.MinInt64 does not overflow on negation.
func formatHundredths(v int64) string {
	u := uint64(v)
	sign := ""
	if v < 0 {
		sign = "-"
		u = -u
	}
	whole, frac := u/100, u%100
	var buf [24]byte
	n := len(buf)
	buf[n-1] = byte('0' + frac%10)
	buf[n-2] = byte('0' + frac/10)
	buf[n-3] = '.'
	n -= 3
	for {
		n--
		buf[n] = byte('0' + whole%10)
		whole /= 10
		if whole == 0 {
			break
		}
	}
	return sign + string(buf[n:])
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
