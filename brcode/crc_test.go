package brcode

import "testing"

func TestCRC16(t *testing.T) {
	tests := []struct {
		in   string
		want uint16
	}{
		{"123456789", 0x29B1}, // the CCITT-FALSE check value
		{"", 0xFFFF},
		{"A", 0xB915},
	}
	for _, tt := range tests {
		if got := CRC16([]byte(tt.in)); got != tt.want {
			t.Errorf("CRC16(%q) = %04X, want %04X", tt.in, got, tt.want)
		}
	}
}
