package money

import (
	"errors"
	"math"
	"math/big"
	"math/bits"
)

// MulPercent applies a rate to an amount, rounding half away from zero so
// that a positive and a negative amount of the same size (a charge and its
// refund) produce fees that cancel. The product is computed in 128 bits and
// is exact; a result beyond the int64 range saturates, which cannot happen
// for amounts and rates within the parser's limits.
func (c Cents) MulPercent(p Percent) Cents {
	neg := (c < 0) != (p < 0)
	hi, lo := bits.Mul64(absU64(int64(c)), absU64(int64(p)))
	if hi >= uint64(OneHundredPercent) {
		return saturate(neg)
	}
	q, r := bits.Div64(hi, lo, uint64(OneHundredPercent))
	if 2*r >= uint64(OneHundredPercent) {
		q++
	}
	if neg {
		if q > 1<<63 {
			return saturate(neg)
		}
		return Cents(-q) // two's complement also handles q == 1<<63
	}
	if q > math.MaxInt64 {
		return saturate(neg)
	}
	return Cents(q)
}

// FeeFor is the fee charged on gross: a fixed part plus a percentage.
func FeeFor(gross Cents, fixed Cents, pct Percent) Cents {
	return fixed + gross.MulPercent(pct)
}

// ErrFeeInput reports fee parameters for which no gross amount makes sense.
var ErrFeeInput = errors.New("fee rate must be at least 0% and below 100%, and net and fixed fee must not be negative")

// ErrFeeOverflow reports a net amount too large to gross up.
var ErrFeeOverflow = errors.New("gross amount would be too large")

// GrossForNet finds what to charge so the merchant receives exactly net
// after fees: the smallest gross with gross-FeeFor(gross) >= net, and
// fee = gross-net. Rounding makes the fee a step function, so the gross is
// searched for rather than solved algebraically; net-of-fee is monotonic
// in gross whenever the rate is below 100%, which makes a binary search
// exact.
func GrossForNet(net Cents, fixed Cents, pct Percent) (gross Cents, fee Cents, err error) {
	if pct < 0 || pct >= OneHundredPercent || net < 0 || fixed < 0 {
		return 0, 0, ErrFeeInput
	}
	// Upper bound: any gross with gross*(1-pct) - fixed - 1/2 >= net
	// qualifies, so hi = ceil((net+fixed+1) * 10000 / (10000-pct)) does.
	num := new(big.Int).Add(big.NewInt(int64(net)), big.NewInt(int64(fixed)))
	num.Add(num, big.NewInt(1))
	num.Mul(num, big.NewInt(int64(OneHundredPercent)))
	den := big.NewInt(int64(OneHundredPercent - pct))
	num.Add(num, new(big.Int).Sub(den, big.NewInt(1)))
	num.Quo(num, den)
	if !num.IsInt64() || num.Int64() > math.MaxInt64/2 {
		return 0, 0, ErrFeeOverflow
	}
	lo, hi := Cents(0), Cents(num.Int64())
	for lo < hi {
		mid := lo + (hi-lo)/2
		if mid-FeeFor(mid, fixed, pct) >= net {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, lo - net, nil
}

func absU64(v int64) uint64 {
	if v < 0 {
		return -uint64(v)
	}
	return uint64(v)
}

func saturate(neg bool) Cents {
	if neg {
		return math.MinInt64
	}
	return math.MaxInt64
}
