package domain

import (
	"net"
	"net/netip"
	"regexp"
	"strings"
)

// APIKey is a merchant key as stored: the secret itself is never kept.
type APIKey struct {
	ID                 string   `db:"id" json:"id"`
	AccountID          string   `db:"account_id" json:"-"`
	Name               string   `db:"name" json:"name"`
	Prefix             string   `db:"prefix" json:"prefix"`
	Permissions        []string `db:"-" json:"permissions"`
	IPAllowlist        []string `db:"-" json:"ipAllowlist"`
	RateLimitPerMinute int      `db:"rate_limit_per_minute" json:"rateLimitPerMinute"`
	RevokedAt          *Time    `db:"revoked_at" json:"revokedAt,omitempty"`
	CreatedAt          Time     `db:"created_at" json:"createdAt"`
}

// Allows reports whether the key holds permission perm ("group/action"),
// directly or through a "group/*" or "*" wildcard. A wildcard covers every
// action below its group, so "subaccount/*" covers "subaccount/portal/setup".
func (k APIKey) Allows(perm string) bool {
	for _, p := range k.Permissions {
		if p == "*" || p == perm {
			return true
		}
		if g, ok := strings.CutSuffix(p, "/*"); ok && strings.HasPrefix(perm, g+"/") {
			return true
		}
	}
	return false
}

// AllowsIP reports whether ip is in one of the key's CIDRs (or equals one of the
// plain addresses); an empty list allows every address.
func (k APIKey) AllowsIP(ip string) bool {
	allowlist := k.IPAllowlist
	if len(allowlist) == 0 {
		return true
	}
	addr, err := netip.ParseAddr(strings.TrimSpace(ip))
	if err != nil {
		return false
	}
	addr = addr.Unmap()
	for _, entry := range allowlist {
		if p, err := netip.ParsePrefix(entry); err == nil && p.Contains(addr) {
			return true
		}
		if a, err := netip.ParseAddr(entry); err == nil && a.Unmap() == addr {
			return true
		}
	}
	return false
}

// ValidCIDR accepts a CIDR or a single address.
func ValidCIDR(s string) bool {
	if _, _, err := net.ParseCIDR(s); err == nil {
		return true
	}
	_, err := netip.ParseAddr(s)
	return err == nil
}

var permissionPattern = regexp.MustCompile(`^(\*|[a-z0-9-]+(/[a-z0-9-]+)*(/\*)?)$`)

// KeyRequest is the body of POST /admin/v1/accounts/{id}/keys.
type KeyRequest struct {
	Name               *string  `json:"name" jsonschema:"required,minLength=1,maxLength=120"`
	Permissions        []string `json:"permissions" jsonschema:"required,minItems=1,description=group/action; group/* and * are wildcards"`
	IPAllowlist        []string `json:"ipAllowlist"`
	RateLimitPerMinute *int     `json:"rateLimitPerMinute" jsonschema:"minimum=1,maximum=1000000"`
}

// NewKey is a validated key request. RateLimitPerMinute 0 takes the
// configured default.
type NewKey struct {
	Name               string
	Permissions        []string
	IPAllowlist        []string
	RateLimitPerMinute int
}

// Validate checks the request against the rules of a key.
func (b KeyRequest) Validate() (NewKey, error) {
	var n NewKey
	var err error
	if n.Name, err = Text("name", b.Name, 1, 120, true); err != nil {
		return n, err
	}
	if len(b.Permissions) == 0 {
		return n, Invalid("permissions", "must list at least one permission")
	}
	for _, p := range b.Permissions {
		if !permissionPattern.MatchString(p) {
			return n, Invalid("permissions", "has %q, which is not of the form group/action, group/* or *", p)
		}
	}
	n.Permissions = b.Permissions
	n.IPAllowlist = []string{}
	for _, cidr := range b.IPAllowlist {
		cidr = strings.TrimSpace(cidr)
		if !validCIDR(cidr) {
			return n, Invalid("ipAllowlist", "has %q, which is not a CIDR or an IP address", cidr)
		}
		n.IPAllowlist = append(n.IPAllowlist, cidr)
	}
	if b.RateLimitPerMinute != nil {
		if *b.RateLimitPerMinute < 1 || *b.RateLimitPerMinute > 1_000_000 {
			return n, Invalid("rateLimitPerMinute", "must be from 1 to 1000000")
		}
		n.RateLimitPerMinute = *b.RateLimitPerMinute
	}
	return n, nil
}

// validCIDR accepts a CIDR or a single address.
func validCIDR(s string) bool {
	if _, err := netip.ParsePrefix(s); err == nil {
		return true
	}
	_, err := netip.ParseAddr(s)
	return err == nil
}
