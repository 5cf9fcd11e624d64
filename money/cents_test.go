package money

import (
	"encoding/json"
	"math"
	"testing"
)

func TestCentsString(t *testing.T) {
	tests := []struct {
		in   Cents
		want string
	}{
		{0, "0.00"},
		{5, "0.05"},
		{-5, "-0.05"},
		{1050, "10.50"},
		{-100, "-1.00"},
		{123456789, "1234567.89"},
		{math.MaxInt64, "92233720368547758.07"},
		{math.MinInt64, "-92233720368547758.08"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("Cents(%d).String() = %q, want %q", int64(tt.in), got, tt.want)
		}
		b, err := tt.in.MarshalJSON()
		if err != nil || string(b) != tt.want {
			t.Errorf("Cents(%d).MarshalJSON() = %s, %v; want %s", int64(tt.in), b, err, tt.want)
		}
	}
}

func TestCentsFormat(t *testing.T) {
	tests := []struct {
		in   Cents
		want string
	}{
		{0, "R$ 0,00"},
		{5, "R$ 0,05"},
		{-5, "-R$ 0,05"},
		{99999, "R$ 999,99"},
		{100000, "R$ 1.000,00"},
		{123456, "R$ 1.234,56"},
		{123456789, "R$ 1.234.567,89"},
		{-123456789, "-R$ 1.234.567,89"},
	}
	for _, tt := range tests {
		if got := tt.in.Format(); got != tt.want {
			t.Errorf("Cents(%d).Format() = %q, want %q", int64(tt.in), got, tt.want)
		}
	}
}

func TestCentsJSONRoundTrip(t *testing.T) {
	values := []Cents{0, 1, -1, 10, 99, 100, 1050, -325, 123456789, 100_000_000_000_000_000, -100_000_000_000_000_000}
	for v := Cents(-1000); v <= 1000; v += 7 {
		values = append(values, v)
	}
	for _, v := range values {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(%d): %v", v, err)
		}
		var got Cents
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("Unmarshal(%s): %v", b, err)
		}
		if got != v {
			t.Fatalf("round trip %d -> %s -> %d", v, b, got)
		}
	}
}

func TestParseTyped(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Cents{"10": 1000, "10,5": 1050, "1.234,56": 123456, "10.50": 1050, "R$ 7,00": 700, " 0,01 ": 1} {
		if got, err := ParseTyped(in); err != nil || got != want {
			t.Errorf("ParseTyped(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "1,234,5", "10,505"} {
		if _, err := ParseTyped(in); err == nil {
			t.Errorf("ParseTyped(%q) accepted", in)
		}
	}
}
