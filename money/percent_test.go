package money

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestPercentJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    Percent
		wantErr error
	}{
		{"1.5", 150, nil},
		{"0.01", 1, nil},
		{"100", 10000, nil},
		{"2.99", 299, nil},
		{"0", 0, nil},
		{"0.005", 0, ErrPrecision},
		{`"1.5"`, 0, ErrString},
		{"null", 0, ErrNull},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var p Percent
			err := json.Unmarshal([]byte(tt.in), &p)
			if !errors.Is(err, tt.wantErr) || p != tt.want {
				t.Fatalf("Unmarshal(%s) = %d, %v; want %d, %v", tt.in, p, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestPercentString(t *testing.T) {
	tests := []struct {
		in   Percent
		want string
	}{
		{150, "1.50"},
		{1, "0.01"},
		{10000, "100.00"},
		{-25, "-0.25"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("Percent(%d).String() = %q, want %q", int64(tt.in), got, tt.want)
		}
		if b, _ := json.Marshal(tt.in); string(b) != tt.want {
			t.Errorf("Marshal(Percent(%d)) = %s, want %s", int64(tt.in), b, tt.want)
		}
	}
	if p, err := ParsePercent("1.5"); err != nil || p != 150 {
		t.Errorf("ParsePercent(1.5) = %d, %v", p, err)
	}
}
