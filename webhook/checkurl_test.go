package webhook

import (
	"net/netip"
	"strings"
	"testing"
)

func TestCheckURL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url          string
		allowPrivate bool
		want         string // "" = accepted, else a piece of the error
	}{
		{"https://example.com/hook", false, ""},
		{"http://example.com/hook", false, "https"},
		{"http://example.com/hook", true, ""},
		{"https://127.0.0.1/hook", false, "public"},
		{"https://localhost/hook", false, "localhost"},
		{"http://127.0.0.1:9/hook", true, ""},
		{"ftp://example.com/hook", true, "http or https"},
		{"example.com/hook", false, "http or https"},
		{"https://example.com/" + strings.Repeat("a", 2048), false, "2048"},
		// IPv6 names of IPv4 addresses and deprecated ranges.
		{"https://[::7f00:1]/hook", false, "public"},            // IPv4-compatible 127.0.0.1
		{"https://[::a9fe:a9fe]/hook", false, "public"},         // IPv4-compatible 169.254.169.254
		{"https://[2002:7f00:1::1]/hook", false, "public"},      // 6to4 of 127.0.0.1
		{"https://[2002:a9fe:a9fe::]/hook", false, "public"},    // 6to4 of the metadata address
		{"https://[2001:0:4136:e378::1]/hook", false, "public"}, // Teredo
		{"https://[fec0::1]/hook", false, "public"},             // site-local
		{"https://[2606:4700::1111]/hook", false, ""},           // an ordinary public IPv6 address
		{"https://[2001:4860:4860::8888]/hook", false, ""},      // 2001:4860::/32 is not Teredo
	} {
		err := CheckURL(c.url, c.allowPrivate)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s (allowPrivate %v): refused: %v", c.url, c.allowPrivate, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s (allowPrivate %v): got %v, want an error about %q", c.url, c.allowPrivate, err, c.want)
		}
	}
}

// The transition and deprecated IPv6 ranges are not public, at their edges;
// their neighbours are.
func TestPublicAddrIPv6TransitionRanges(t *testing.T) {
	t.Parallel()
	for addr, public := range map[string]bool{
		"::1:2":                 false, // ::/96
		"::ffff:ffff":           false,
		"::1:0:0:0":             true, // just past ::/96 (not a special range)
		"2002::":                false,
		"2002:ffff:ffff:ffff::": false,
		"2003::1":               true,
		"2001::":                false,
		"2001:0:ffff:ffff::1":   false,
		"fec0::":                false,
		"feff:ffff::1":          false,
		"fe00::1":               true,
	} {
		if got := PublicAddr(netip.MustParseAddr(addr)); got != public {
			t.Errorf("PublicAddr(%s) = %v, want %v", addr, got, public)
		}
	}
}
