package domain

import "strings"

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
