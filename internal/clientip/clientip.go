// Package clientip finds the address of the client behind a request: the
// peer, or, when the peer is a trusted proxy (JANGADA_TRUSTED_PROXIES), the
// address that proxy saw, read from X-Forwarded-For. The HTTP API, the admin
// API and the WebSocket gateway all ask it, so rate limits, connection caps
// and IP allowlists see the same address everywhere.
package clientip

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Trusted is the set of networks whose peers are proxies we believe about
// the client's address. The zero value trusts nobody: every request's
// client is its peer, and X-Forwarded-For is ignored (a client can forge it).
type Trusted struct {
	nets []netip.Prefix
}

// Parse reads a list of CIDRs (or single addresses) of trusted proxies;
// an empty list trusts none.
func Parse(list []string) (Trusted, error) {
	var t Trusted
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return Trusted{}, fmt.Errorf("trusted proxy %q is neither a CIDR nor an address", s)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		t.nets = append(t.nets, p.Masked())
	}
	return t, nil
}

// Empty reports whether no proxy is trusted.
func (t Trusted) Empty() bool { return len(t.nets) == 0 }

// trusts reports whether ip is one of the trusted proxies.
func (t Trusted) trusts(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range t.nets {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// ClientIP is the client's address for r. When the peer is a trusted proxy,
// X-Forwarded-For (every header line, joined in order, as each proxy
// appends) is read from the right: each trusted proxy is skipped, and the
// first address that is not one is the client. Without a trusted peer, or
// when the header is missing or malformed, the client is the peer: an
// untrusted caller's header changes nothing.
func (t Trusted) ClientIP(r *http.Request) string {
	peer := Peer(r)
	if len(t.nets) == 0 {
		return peer
	}
	ip, err := netip.ParseAddr(peer)
	if err != nil || !t.trusts(ip) {
		return peer
	}
	var hops []string
	for _, line := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(line, ",")...)
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			// Garbage in the chain: nothing left of it can be believed.
			return client
		}
		client = hop.Unmap().String()
		if !t.trusts(hop) {
			return client
		}
	}
	return client
}

// Peer is the address of the connection's other end (no headers).
func Peer(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return a.Unmap().WithZone("").String()
	}
	return strings.Trim(host, "[]")
}
