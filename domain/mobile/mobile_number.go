package mobile

import (
	"strings"

	"github.com/jangada/jangada/domain"
)

// Brazilian mobile numbers: a two-digit area code (DDD) of the national
// numbering plan, then nine digits beginning with 9 (every mobile number
// since 2016). A landline (eight digits from 2 to 5) cannot be recharged.

// dddStates maps each area code in service to its state, as Anatel's
// numbering plan assigns them.
var dddStates = map[string]string{
	"11": "SP", "12": "SP", "13": "SP", "14": "SP", "15": "SP", "16": "SP", "17": "SP", "18": "SP", "19": "SP",
	"21": "RJ", "22": "RJ", "24": "RJ", "27": "ES", "28": "ES",
	"31": "MG", "32": "MG", "33": "MG", "34": "MG", "35": "MG", "37": "MG", "38": "MG",
	"41": "PR", "42": "PR", "43": "PR", "44": "PR", "45": "PR", "46": "PR", "47": "SC", "48": "SC", "49": "SC",
	"51": "RS", "53": "RS", "54": "RS", "55": "RS",
	"61": "DF", "62": "GO", "63": "TO", "64": "GO", "65": "MT", "66": "MT", "67": "MS", "68": "AC", "69": "RO",
	"71": "BA", "73": "BA", "74": "BA", "75": "BA", "77": "BA", "79": "SE",
	"81": "PE", "82": "AL", "83": "PB", "84": "RN", "85": "CE", "86": "PI", "87": "PE", "88": "CE", "89": "PI",
	"91": "PA", "92": "AM", "93": "PA", "94": "PA", "95": "RR", "96": "AP", "97": "AM", "98": "MA", "99": "MA",
}

// DDDState is the state of an area code, and whether the code is in service.
func DDDState(ddd string) (string, bool) {
	s, ok := dddStates[ddd]
	return s, ok
}

// MobileNumber is a Brazilian mobile number: its area code and its nine-digit
// subscriber number.
type MobileNumber struct {
	DDD    string
	Number string
}

// String is the national form the API answers with: the eleven digits.
func (p MobileNumber) String() string { return p.DDD + p.Number }

// ParseMobileNumber reads a Brazilian mobile number with its area code, in any
// usual notation: "(11) 98765-4321", "11987654321", "+55 11 98765-4321",
// "5511987654321", "011987654321". field names it in errors.
func ParseMobileNumber(field, raw string) (MobileNumber, error) {
	var b strings.Builder
	for i, r := range strings.TrimSpace(raw) {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '+' && i == 0, r == ' ', r == '-', r == '(', r == ')', r == '.':
		default:
			return MobileNumber{}, domain.Invalid(field, "must be a Brazilian mobile number with area code, such as (11) 98765-4321")
		}
	}
	d := b.String()
	switch {
	case len(d) == 13 && strings.HasPrefix(d, "55"):
		d = d[2:]
	case len(d) == 12 && strings.HasPrefix(d, "0"):
		d = d[1:]
	}
	if len(d) != 11 {
		return MobileNumber{}, domain.Invalid(field, "must have a two-digit area code and a nine-digit mobile number")
	}
	p := MobileNumber{DDD: d[:2], Number: d[2:]}
	if _, ok := dddStates[p.DDD]; !ok {
		return MobileNumber{}, domain.Invalid(field, "has area code %s, which is not in service in Brazil", p.DDD)
	}
	if p.Number[0] != '9' {
		return MobileNumber{}, domain.Invalid(field, "must be a mobile number: nine digits beginning with 9 after the area code")
	}
	return p, nil
}
