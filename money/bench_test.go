package money

import (
	"encoding/json"
	"testing"
)

func BenchmarkUnmarshalCents(b *testing.B) {
	b.ReportAllocs()
	raw := []byte("1234567.89")
	var c Cents
	for b.Loop() {
		if err := json.Unmarshal(raw, &c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalCents(b *testing.B) {
	b.ReportAllocs()
	c := Cents(123456789)
	for b.Loop() {
		if _, err := json.Marshal(c); err != nil {
			b.Fatal(err)
		}
	}
}
