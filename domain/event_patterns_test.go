package domain

import (
	"strings"
	"testing"
)

func TestPatterns(t *testing.T) {
	cases := []struct {
		p, ev string
		want  bool
	}{
		{"*", "med.created", true},
		{"payment.*", "payment.pix.expired", true},
		{"payment.*", "payment_link.paid", true},
		{"payment.*", "refund.completed", false},
		{"transfer.*", "transfer.internal.received", true},
		{"*.paid", "payment.paid", true},
		{"*.paid", "payment_link.paid", true},
		{"payment.paid", "payment.paid", true},
		{"payment.paid", "payment.failed", false},
		{"payment*", "payment", false},
		{strings.Repeat("*", 64), "payment.paid", false},
	}
	for _, c := range cases {
		if got := Matches(c.p, c.ev); got != c.want {
			t.Errorf("Matches(%q, %q) = %v", c.p, c.ev, got)
		}
	}
	for p, want := range map[string]bool{"*": true, "payment.*": true, "payment.paid": true, "foo.*": false, "payment.payed": false, "Payment.*": false} {
		if KnownPattern(p) != want {
			t.Errorf("KnownPattern(%q) != %v", p, want)
		}
	}
}
