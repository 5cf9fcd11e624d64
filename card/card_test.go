package card

import (
	"testing"
	"time"
)

func TestLuhn(t *testing.T) {
	for _, tt := range []struct {
		number string
		ok     bool
	}{
		{"4111111111111111", true}, // the sandbox's approving card
		{"4000000000000002", true}, // the sandbox's declining card
		{"5555555555554444", true},
		{"378282246310005", true},
		{"6362970000457013", true},
		{"4111111111111112", false},
		{"1234567812345678", false},
		{"", false},
		{"41111111111a1111", false},
		{"0", true},
	} {
		if got := Luhn(tt.number); got != tt.ok {
			t.Errorf("Luhn(%q) = %v, want %v", tt.number, got, tt.ok)
		}
	}
}

func TestBrand(t *testing.T) {
	for _, tt := range []struct{ number, brand string }{
		{"4111111111111111", Visa},
		{"4000000000000002", Visa},
		{"5555555555554444", Mastercard},
		{"2223003122003222", Mastercard},
		{"2720999999999996", Mastercard},
		{"378282246310005", Amex},
		{"341111111111111", Amex},
		{"6362970000457013", Elo},
		{"4011780000000000", Elo}, // inside Visa's 4: Elo wins
		{"5067000000000000", Elo},
		{"6504050000000000", Elo}, // inside Discover's 65: Elo wins
		{"6062825624254001", Hipercard},
		{"3841001111222233", Hipercard},
		{"30569309025904", Diners},
		{"36148900647913", Diners},
		{"6011111111111117", Discover},
		{"6500000000000002", Discover},
		{"3530111333300000", JCB},
		{"9999999999999999", Unknown},
		{"1", Unknown},
	} {
		if got := Brand(tt.number); got != tt.brand {
			t.Errorf("Brand(%s) = %s, want %s", tt.number, got, tt.brand)
		}
	}
}

func TestExpired(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		month, year int
		expired     bool
	}{
		{11, 2026, false}, // good through the end of its month
		{12, 2026, false},
		{10, 2026, true},
		{1, 2027, false},
		{12, 25, true},
		{11, 26, false},
		{1, 30, false},
	} {
		if got := Expired(tt.month, tt.year, now); got != tt.expired {
			t.Errorf("Expired(%d/%d) = %v, want %v", tt.month, tt.year, got, tt.expired)
		}
	}
	if !Expired(11, 2026, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) {
		t.Error("a card of 11/2026 is still good on 2026-12-01")
	}
}

func TestCleanAndLast4(t *testing.T) {
	if got := Clean("4111 1111-1111 1111"); got != "4111111111111111" {
		t.Errorf("Clean = %s", got)
	}
	if got := Last4("4111111111111111"); got != "1111" {
		t.Errorf("Last4 = %s", got)
	}
}
