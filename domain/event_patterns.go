package domain

import (
	"regexp"
	"strings"
)

// Catalog is the list of active event types of the specification.
var Catalog = []string{
	"payment.created", "payment.paid", "payment.failed", "payment.pix.expired", "payment.refunded",
	"refund.requested", "refund.completed", "refund.failed",
	"transfer.created", "transfer.completed", "transfer.failed",
	"transfer.internal.completed", "transfer.internal.received",
	"med.created", "med.evidence_sent", "med.updated",
	"payment_link.paid",
	"invoice.created", "invoice.processing", "invoice.issued", "invoice.failed", "invoice.cancelled",
	"webhook.test",
}

var validPattern = regexp.MustCompile(`^[a-z0-9_.*]{1,64}$`)

// ValidPattern reports whether p is well formed: lower-case letters,
// digits, '_', '.', '*', at most 64 characters.
func ValidPattern(p string) bool { return validPattern.MatchString(p) }

// KnownPattern reports whether p is a catalog event or a pattern matching at
// least one: what a webhook endpoint's events list may hold.
func KnownPattern(p string) bool {
	if !ValidPattern(p) {
		return false
	}
	for _, ev := range Catalog {
		if Matches(p, ev) {
			return true
		}
	}
	return false
}

// Matches reports whether event type ev matches pattern p. "*" matches
// every event; "family.*" matches the family's events ("payment.*" also
// covers payment_link.paid, as the specification lists it there); any
// other '*' matches one or more characters.
func Matches(p, ev string) bool {
	if p == "*" || p == ev {
		return true
	}
	if !strings.Contains(p, "*") {
		return false
	}
	if p == "payment.*" && strings.HasPrefix(ev, "payment_link.") {
		return true
	}
	return glob(p, ev)
}

// glob matches with '*' standing for one or more characters, by dynamic
// programming: a pattern of 64 stars costs 64×len(ev) steps, not an
// exponential backtrack (patterns come from clients).
func glob(p, s string) bool {
	prev := make([]bool, len(s)+1) // prev[j]: p[:i-1] matches s[:j]
	cur := make([]bool, len(s)+1)
	prev[0] = true
	for i := 1; i <= len(p); i++ {
		cur[0] = false
		for j := 1; j <= len(s); j++ {
			if p[i-1] == '*' {
				cur[j] = prev[j-1] || cur[j-1]
			} else {
				cur[j] = prev[j-1] && p[i-1] == s[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(s)]
}

// AnyMatches reports whether one of the patterns matches ev.
func AnyMatches(patterns []string, ev string) bool {
	for _, p := range patterns {
		if Matches(p, ev) {
			return true
		}
	}
	return false
}
