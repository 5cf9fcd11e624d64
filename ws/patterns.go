// Package ws is the WebSocket event gateway (protocol version 1): clients
// authenticate with an API key, subscribe to event patterns or to one
// payment, and receive the same lean event envelopes as webhooks.
package ws

import (
	"regexp"
	"strings"
)

var validPattern = regexp.MustCompile(`^[a-z0-9_.*]{1,64}$`)

// ValidPattern reports whether p may be subscribed to.
func ValidPattern(p string) bool { return validPattern.MatchString(p) }

// Matches reports whether event type ev matches pattern p: "*" matches all,
// a trailing ".*" matches the prefix's family, "*" inside matches one or
// more characters.
func Matches(p, ev string) bool {
	if p == "*" || p == ev {
		return true
	}
	if prefix, ok := strings.CutSuffix(p, ".*"); ok && strings.HasPrefix(ev, prefix+".") {
		return true
	}
	if !strings.Contains(p, "*") {
		return false
	}
	re, err := regexp.Compile("^" + strings.ReplaceAll(regexp.QuoteMeta(p), `\*`, ".+") + "$")
	return err == nil && re.MatchString(ev)
}
