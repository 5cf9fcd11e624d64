package pixauto

import (
	"testing"

	"github.com/jangada/jangada/money"
)

// BenchmarkAdmit checks an instruction against a monthly authorization
// (the rule every instruction create and every cycle runs).
func BenchmarkAdmit(b *testing.B) {
	a := Authorization{Status: StatusActive, Frequency: Monthly, MaxAmount: ptr(money.Cents(10000)), StartDate: "2026-01-31"}
	for b.Loop() {
		if _, err := a.Admit(9999, "2026-12-01", now); err != nil {
			b.Fatal(err)
		}
	}
}
