package money

import "strings"

// Cents is an amount of Brazilian reais counted in centavos. An integer
// type makes sums and fee splits exact, which ledgers and reconciliation
// files require.
type Cents int64

// ParseBRL reads a decimal amount in reais, such as a query parameter, with
// the same grammar and limits as the JSON form so that both entry points
// accept exactly the same values.
func ParseBRL(s string) (Cents, error) {
	v, err := parseHundredths(s)
	return Cents(v), err
}

// String renders the amount in reais with a dot and two decimals ("10.50"),
// the form used on the wire and in logs.
func (c Cents) String() string { return formatHundredths(int64(c)) }

// MarshalJSON writes a bare JSON number with two decimals so that clients
// see the same value the ledger holds, with no float formatting artefacts.
func (c Cents) MarshalJSON() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalJSON accepts only JSON numbers that are exact in centavos; see
// the Err* values for what is rejected and why.
func (c *Cents) UnmarshalJSON(b []byte) error {
	v, err := parseJSONHundredths(b)
	if err != nil {
		return err
	}
	*c = Cents(v)
	return nil
}

// Format renders the amount the way Brazilian users read it, "R$ 1.234,56",
// with the sign in front ("-R$ 5,00") so it cannot be mistaken for a
// thousands separator.
func (c Cents) Format() string {
	s := c.String()
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	whole, frac := s[:len(s)-3], s[len(s)-2:]
	var b strings.Builder
	b.WriteString(sign)
	b.WriteString("R$ ")
	for i := 0; i < len(whole); i++ {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteByte(whole[i])
	}
	b.WriteByte(',')
	b.WriteString(frac)
	return b.String()
}

// ParseTyped reads an amount in reais as a person types it in a form: 10,
// 10,5, 1.234,56, 10.50 or R$ 7,00 (a comma is the decimal mark, dots then
// group thousands), with ParseBRL's limits.
func ParseTyped(s string) (Cents, error) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "R$"))
	if strings.Contains(s, ",") {
		s = strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")
	}
	return ParseBRL(s)
}
