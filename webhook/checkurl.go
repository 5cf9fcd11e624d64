package webhook

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
)

// nonPublic are the ranges Go's netip predicates do not cover that a
// delivery must not reach: special-purpose IPv4 blocks, and IPv6 prefixes
// that embed or tunnel to an IPv4 address (NAT64, IPv4-compatible, 6to4,
// Teredo) and so could reach a private IPv4 address by another name.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"), // NAT64 can reach any IPv4, private ones included
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("100::/64"),
	// IPv4-compatible (deprecated, ::a.b.c.d): some stacks route them to
	// the embedded IPv4 address, loopback and private ones included.
	netip.MustParsePrefix("::/96"),
	// 6to4: 2002:AABB:CCDD:: carries the IPv4 address AA.BB.CC.DD, which a
	// relay may turn back into 10.x, 127.x or 169.254.x.
	netip.MustParsePrefix("2002::/16"),
	// Teredo: tunnels to an (obfuscated) IPv4 address through a relay.
	netip.MustParsePrefix("2001::/32"),
	// Site-local (deprecated, RFC 3879): still private on networks that use it.
	netip.MustParsePrefix("fec0::/10"),
}

// PublicAddr reports whether deliveries may go to ip: not loopback,
// private, link-local (cloud metadata lives there), multicast, unspecified
// or reserved.
func PublicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsUnspecified() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() ||
		ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast() || ip.IsMulticast() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// CheckURL validates an endpoint URL at creation: absolute http(s) with a
// host, at most 2048 characters; without allowPrivate, https only, and an IP
// literal or "localhost" must be public (names are checked again at every
// dial).
func CheckURL(raw string, allowPrivate bool) error {
	if len(raw) > 2048 {
		return errors.New("must be at most 2048 characters")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.Opaque != "" {
		return errors.New("must be an absolute http or https URL")
	}
	if allowPrivate {
		return nil
	}
	// Events carry payment data: outside development they travel encrypted.
	if u.Scheme != "https" {
		return errors.New("must be an https URL (http only with JANGADA_WEBHOOK_ALLOW_PRIVATE=true, for development)")
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return errors.New("must not point to localhost")
	}
	if ip, err := netip.ParseAddr(host); err == nil && !PublicAddr(ip) {
		return errors.New("must point to a public address")
	}
	return nil
}
