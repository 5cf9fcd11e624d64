package money

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestUnmarshalCents(t *testing.T) {
	tests := []struct {
		in      string
		want    Cents
		wantErr error
	}{
		{"10", 1000, nil},
		{"10.5", 1050, nil},
		{"10.50", 1050, nil},
		{"10.100", 1010, nil},
		{"1e2", 10000, nil},
		{"1.5E1", 1500, nil},
		{"1E+2", 10000, nil},
		{"-3.25", -325, nil},
		{"0.1", 10, nil},
		{"0.10", 10, nil},
		{"0.01", 1, nil},
		{"1e-2", 1, nil},
		{"100e-4", 1, nil},
		{"0", 0, nil},
		{"-0", 0, nil},
		{"-0.00", 0, nil},
		{"0e-999999999999999999999", 0, nil},
		{"0.000", 0, nil},
		{" 7.25 ", 725, nil},
		{"1000000000000000", 100_000_000_000_000_000, nil},
		{"-1000000000000000.00", -100_000_000_000_000_000, nil},
		{"1e15", 100_000_000_000_000_000, nil},
		{"999999999999999.99", 99_999_999_999_999_999, nil},
		{"1000000000000000.01", 0, ErrRange},
		{"1e16", 0, ErrRange},
		{"-1e16", 0, ErrRange},
		{"123456789012345678901234567890", 0, ErrRange},
		{"1e999999999999999999999", 0, ErrRange},
		{"10.001", 0, ErrPrecision},
		{"0.105", 0, ErrPrecision},
		{"1e-3", 0, ErrPrecision},
		{"1e-999999999999999999999", 0, ErrPrecision},
		{`"10"`, 0, ErrString},
		{`"1"`, 0, ErrString},
		{"null", 0, ErrNull},
		{"true", 0, ErrNotNumber},
		{"{}", 0, ErrNotNumber},
		{"", 0, ErrNotNumber},
		{"01", 0, ErrNotNumber},
		{"+1", 0, ErrNotNumber},
		{".5", 0, ErrNotNumber},
		{"5.", 0, ErrNotNumber},
		{"1e", 0, ErrNotNumber},
		{"1e+", 0, ErrNotNumber},
		{"-", 0, ErrNotNumber},
		{"1,50", 0, ErrNotNumber},
		{"NaN", 0, ErrNotNumber},
		{"Infinity", 0, ErrNotNumber},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var c Cents = 42
			err := c.UnmarshalJSON([]byte(tt.in))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("UnmarshalJSON(%s) error = %v, want %v", tt.in, err, tt.wantErr)
			}
			if err == nil && c != tt.want {
				t.Fatalf("UnmarshalJSON(%s) = %d, want %d", tt.in, c, tt.want)
			}
			if err != nil {
				var me *Error
				if !errors.As(err, &me) {
					t.Fatalf("error %T is not *money.Error", err)
				}
				if c != 42 {
					t.Fatalf("value changed to %d on error", c)
				}
			}
		})
	}
}

func TestParseBRL(t *testing.T) {
	tests := []struct {
		in      string
		want    Cents
		wantErr error
	}{
		{"10.50", 1050, nil},
		{"1e-2", 1, nil},
		{"-0.05", -5, nil},
		{"10.001", 0, ErrPrecision},
		{`"10"`, 0, ErrNotNumber}, // a query value has no JSON quoting
		{" 10", 0, ErrNotNumber},
		{"", 0, ErrNotNumber},
		{"1e16", 0, ErrRange},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseBRL(tt.in)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Fatalf("ParseBRL(%q) = %d, %v; want %d, %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// The errors must survive encoding/json unchanged so the API layer can
// match them and prefix the field name.
func TestUnmarshalThroughEncodingJSON(t *testing.T) {
	var body struct {
		Amount Cents   `json:"amount"`
		Rate   Percent `json:"rate"`
	}
	if err := json.Unmarshal([]byte(`{"amount": 12.3, "rate": 2.99}`), &body); err != nil {
		t.Fatal(err)
	}
	if body.Amount != 1230 || body.Rate != 299 {
		t.Fatalf("got %d, %d", body.Amount, body.Rate)
	}
	err := json.Unmarshal([]byte(`{"amount": "12.30"}`), &body)
	var me *Error
	if !errors.As(err, &me) || !errors.Is(err, ErrString) {
		t.Fatalf("error = %v (%T), want ErrString", err, err)
	}
	if got := err.Error(); got != "must be a number, not a string" {
		t.Fatalf("message = %q", got)
	}
}
