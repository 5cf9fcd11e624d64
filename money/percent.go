package money

// Percent is a rate in hundredths of a percent (basis points): 1.5% is 150
// and 100% is 10000. Fee rates are quoted with two decimals, so this keeps
// them as exact as the amounts they apply to.
type Percent int64

// OneHundredPercent is the whole amount; rates at or above it would leave
// nothing for the merchant.
const OneHundredPercent Percent = 10000

// ParsePercent reads a rate written in percent ("1.5" is 1.5%) with the
// same grammar and limits as the JSON form.
func ParsePercent(s string) (Percent, error) {
	v, err := parseHundredths(s)
	return Percent(v), err
}

// String renders the rate in percent with two decimals ("1.50").
func (p Percent) String() string { return formatHundredths(int64(p)) }

// MarshalJSON writes the rate in percent as a bare JSON number ("1.50").
func (p Percent) MarshalJSON() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalJSON accepts a JSON number in percent with at most two decimals,
// under the same rules as Cents.UnmarshalJSON.
func (p *Percent) UnmarshalJSON(b []byte) error {
	v, err := parseJSONHundredths(b)
	if err != nil {
		return err
	}
	*p = Percent(v)
	return nil
}
