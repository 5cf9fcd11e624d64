package money

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestMulPercent(t *testing.T) {
	tests := []struct {
		c    Cents
		p    Percent
		want Cents
	}{
		{10000, 150, 150}, // 1.5% of R$100
		{1000, 150, 15},   // exact
		{100, 150, 2},     // 1.5 rounds up
		{-100, 150, -2},   // half away from zero
		{100, -150, -2},   // sign from the rate
		{-100, -150, 2},   // both negative
		{33, 150, 0},      // 0.495 rounds down
		{34, 150, 1},      // 0.51 rounds up
		{1, 5000, 1},      // exactly half
		{1, 4999, 0},      // just below half
		{-1, 5000, -1},    // exactly half, negative
		{12345, 10000, 12345},
		{0, 9999, 0},
		{100_000_000_000_000_000, 299, 2_990_000_000_000_000},
		{100_000_000_000_000_000, 100_000_000_000_000_000, math.MaxInt64}, // saturates
		{-100_000_000_000_000_000, 100_000_000_000_000_000, math.MinInt64},
	}
	for _, tt := range tests {
		if got := tt.c.MulPercent(tt.p); got != tt.want {
			t.Errorf("Cents(%d).MulPercent(%d) = %d, want %d", tt.c, tt.p, got, tt.want)
		}
	}
}

// MulPercent must agree with exact rational arithmetic everywhere.
func TestMulPercentMatchesBigRat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		c := Cents(r.Int64N(2*100_000_000_000_000_000+1) - 100_000_000_000_000_000)
		p := Percent(r.Int64N(20001) - 10000)
		if r.IntN(3) == 0 {
			c = Cents(r.Int64N(20001) - 10000)
		}
		exact := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(int64(c)), big.NewInt(int64(p))), big.NewInt(10000))
		want := roundHalfAway(exact)
		if got := c.MulPercent(p); got != want {
			t.Fatalf("Cents(%d).MulPercent(%d) = %d, want %d", c, p, got, want)
		}
	}
}

func roundHalfAway(x *big.Rat) Cents {
	a := new(big.Rat).Abs(x)
	a.Add(a, big.NewRat(1, 2))
	q := new(big.Int).Quo(a.Num(), a.Denom())
	if x.Sign() < 0 {
		q.Neg(q)
	}
	return Cents(q.Int64())
}

func TestFeeFor(t *testing.T) {
	if got := FeeFor(10000, 50, 299); got != 349 {
		t.Fatalf("FeeFor(100.00, 0.50, 2.99%%) = %d, want 349", got)
	}
}

func TestGrossForNet(t *testing.T) {
	tests := []struct {
		net, fixed         Cents
		pct                Percent
		wantGross, wantFee Cents
	}{
		{10000, 0, 0, 10000, 0},
		{10000, 50, 0, 10050, 50},
		{0, 0, 299, 0, 0},
		{0, 50, 0, 50, 50},
		{9651, 50, 299, 10000, 349}, // 100.00 - (0.50 + 2.99) = 96.51
		{1, 0, 9999, 5001, 5000},    // at 5000 the fee rounds 4999.5 up to 5000, netting 0
	}
	for _, tt := range tests {
		gross, fee, err := GrossForNet(tt.net, tt.fixed, tt.pct)
		if err != nil {
			t.Fatalf("GrossForNet(%d, %d, %d): %v", tt.net, tt.fixed, tt.pct, err)
		}
		if gross != tt.wantGross || fee != tt.wantFee {
			t.Errorf("GrossForNet(%d, %d, %d) = %d, %d; want %d, %d", tt.net, tt.fixed, tt.pct, gross, fee, tt.wantGross, tt.wantFee)
		}
	}
}

func TestGrossForNetRejects(t *testing.T) {
	tests := []struct {
		name       string
		net, fixed Cents
		pct        Percent
		want       error
	}{
		{"100 percent", 100, 0, 10000, ErrFeeInput},
		{"over 100 percent", 100, 0, 12000, ErrFeeInput},
		{"negative percent", 100, 0, -1, ErrFeeInput},
		{"negative net", -1, 0, 100, ErrFeeInput},
		{"negative fixed", 100, -1, 100, ErrFeeInput},
		{"overflow", 100_000_000_000_000_000, 0, 9999, ErrFeeOverflow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := GrossForNet(tt.net, tt.fixed, tt.pct); !errors.Is(err, tt.want) {
				t.Fatalf("error = %v, want %v", err, tt.want)
			}
		})
	}
}

// The gross must be the smallest amount that leaves the merchant at least
// net, and the reported fee must make the merchant net exactly net.
func TestGrossForNetProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(net, fixed Cents, pct Percent) {
		t.Helper()
		gross, fee, err := GrossForNet(net, fixed, pct)
		if err != nil {
			t.Fatalf("GrossForNet(%d, %d, %d): %v", net, fixed, pct, err)
		}
		if gross-fee != net {
			t.Fatalf("GrossForNet(%d, %d, %d): gross %d - fee %d != net", net, fixed, pct, gross, fee)
		}
		if gross-FeeFor(gross, fixed, pct) < net {
			t.Fatalf("GrossForNet(%d, %d, %d) = %d does not cover net", net, fixed, pct, gross)
		}
		if gross > 0 && (gross-1)-FeeFor(gross-1, fixed, pct) >= net {
			t.Fatalf("GrossForNet(%d, %d, %d) = %d is not the smallest", net, fixed, pct, gross)
		}
	}
	for net := Cents(0); net <= 300; net++ {
		for _, pct := range []Percent{0, 1, 99, 150, 299, 4999, 5000, 5001, 9999} {
			for _, fixed := range []Cents{0, 1, 50} {
				check(net, fixed, pct)
			}
		}
	}
	for range 20000 {
		net := Cents(r.Int64N(1_000_000_000_000))
		if r.IntN(2) == 0 {
			net = Cents(r.Int64N(100_000))
		}
		fixed := Cents(r.Int64N(1000))
		pct := Percent(r.Int64N(10000))
		check(net, fixed, pct)
	}
	check(100_000_000_000_000_000, 100_000_000_000_000_000, 299)
}
