// Package card holds the rules of payment card numbers, with no I/O: the
// Luhn check, brand detection from the number's prefix and the expiry
// check. A card number lives only in memory between a request and the
// processor's tokenizer; Last4 is all that may be kept of it.
package card

import (
	"strconv"
	"strings"
	"time"
)

// Brands a number can be detected as.
const (
	Visa       = "VISA"
	Mastercard = "MASTERCARD"
	Amex       = "AMEX"
	Elo        = "ELO"
	Hipercard  = "HIPERCARD"
	Diners     = "DINERS"
	Discover   = "DISCOVER"
	JCB        = "JCB"
	Unknown    = "UNKNOWN"
)

// Luhn reports whether digits (only digits) pass the Luhn check.
func Luhn(digits string) bool {
	if digits == "" {
		return false
	}
	sum, double := 0, false
	for i := len(digits) - 1; i >= 0; i-- {
		c := digits[i]
		if c < '0' || c > '9' {
			return false
		}
		d := int(c - '0')
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// Clean strips the spaces and hyphens a payer types in a number.
func Clean(number string) string {
	return strings.NewReplacer(" ", "", "-", "").Replace(number)
}

// prefixRange is a brand's range of number prefixes of one length, both ends included.
type prefixRange struct {
	lo, hi int
	brand  string
}

// brandRanges are tried in order: Elo and Hipercard first, since their
// ranges sit inside ranges that would otherwise read as Visa or Discover.
var brandRanges = []prefixRange{
	// Elo (Brazil).
	{401178, 401179, Elo}, {431274, 431274, Elo}, {438935, 438935, Elo}, {451416, 451416, Elo},
	{457393, 457393, Elo}, {457631, 457632, Elo}, {504175, 504175, Elo}, {506699, 506778, Elo},
	{509000, 509999, Elo}, {627780, 627780, Elo}, {636297, 636297, Elo}, {636368, 636368, Elo},
	{650031, 650033, Elo}, {650035, 650051, Elo}, {650405, 650439, Elo}, {650485, 650538, Elo},
	{650541, 650598, Elo}, {650700, 650718, Elo}, {650720, 650727, Elo}, {650901, 650978, Elo},
	{651652, 651679, Elo}, {655000, 655019, Elo}, {655021, 655058, Elo},
	// Hipercard (Brazil).
	{606282, 606282, Hipercard}, {3841, 3841, Hipercard},
	{34, 34, Amex}, {37, 37, Amex},
	{300, 305, Diners}, {36, 36, Diners}, {38, 39, Diners},
	{3528, 3589, JCB},
	{6011, 6011, Discover}, {644, 649, Discover}, {65, 65, Discover},
	{2221, 2720, Mastercard}, {51, 55, Mastercard},
	{4, 4, Visa},
}

// Brand detects the brand of a number from its prefix (Unknown when no
// range matches).
func Brand(number string) string {
	for _, r := range brandRanges {
		n := len(strconv.Itoa(r.lo))
		if len(number) < n {
			continue
		}
		p, err := strconv.Atoi(number[:n])
		if err == nil && p >= r.lo && p <= r.hi {
			return r.brand
		}
	}
	return Unknown
}

// Expired reports whether a card valid through month/year (a two-digit
// year is 20YY) has expired at now: a card is good until the last day of
// its expiry month.
func Expired(month, year int, now time.Time) bool {
	if year < 100 {
		year += 2000
	}
	firstAfter := time.Date(year, time.Month(month)+1, 1, 0, 0, 0, 0, now.Location())
	return !now.Before(firstAfter)
}

// Last4 is what may be kept of a number.
func Last4(number string) string {
	if len(number) < 4 {
		return number
	}
	return number[len(number)-4:]
}
