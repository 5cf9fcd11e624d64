package domain

import (
	"regexp"
	"strings"
)

// familyAliases maps an event name's first segment to the family it is
// listed under when the two differ: the specification lists payment links
// under payment.*.
var familyAliases = map[string]string{"payment_link": "payment"}

// Family is the family of event type ev: its first dot-separated segment
// ("transfer" for transfer.internal.received), or the family the
// specification lists it under (payment_link.paid is a payment event).
func Family(ev string) string {
	f, _, _ := strings.Cut(ev, ".")
	if alias, ok := familyAliases[f]; ok {
		return alias
	}
	return f
}

// FamilyPatterns are the patterns derived from the catalog that a webhook
// endpoint or WebSocket connection subscribes with to a whole family: "*"
// then "<family>.*" for each family, in the catalog's order.
func FamilyPatterns() []string {
	ps := []string{"*"}
	seen := map[string]bool{}
	for _, ev := range Catalog {
		if f := Family(ev); !seen[f] {
			seen[f] = true
			ps = append(ps, f+".*")
		}
	}
	return ps
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
// every event; "family.*" matches the family's events (Family: "payment.*"
// also covers payment_link.paid, as the specification lists it there); any
// other '*' matches one or more characters.
func Matches(p, ev string) bool {
	if p == "*" || p == ev {
		return true
	}
	if !strings.Contains(p, "*") {
		return false
	}
	if f, ok := strings.CutSuffix(p, ".*"); ok && f == Family(ev) {
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
