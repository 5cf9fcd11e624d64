package api

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/domain"
)

const (
	keyIDKey   = "keyId"
	keyCtxKey  = "apiKey"
	acctCtxKey = "account"
)

// presentedKey reads the key from X-API-Key or Authorization: Bearer.
func presentedKey(c *gin.Context) string {
	if k := strings.TrimSpace(c.GetHeader("X-API-Key")); k != "" {
		return k
	}
	if v, ok := strings.CutPrefix(c.GetHeader("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(v)
	}
	return ""
}

// authenticate resolves the key, applies the rate limit (per key, or per IP
// without a valid key), the key's IP allowlist, and loads the account.
func (s *Server) authenticate(c *gin.Context) {
	var key domain.APIKey
	var err error
	secret := presentedKey(c)
	// An address that has spent its budget on requests without a valid key
	// is refused before the key is even looked up: guessing keys costs the
	// database nothing.
	ipID := "ip:" + c.ClientIP()
	if s.limiter.Exhausted(c.Request.Context(), ipID, s.cfg.RateLimitPerMinute) {
		s.limit(c, ipID, s.cfg.RateLimitPerMinute)
		return
	}
	var acct domain.Account
	if secret != "" {
		key, acct, err = s.Auth.Resolve(c.Request.Context(), secret)
	}
	if err != nil && statusOf(err) == http.StatusServiceUnavailable {
		// The key could not be checked (the database is away): no fault
		// of the caller, so its address's bad-key budget stays whole and
		// it is not throttled once the database is back.
		fail(c, err)
		return
	}
	if secret == "" || err != nil {
		if !s.limit(c, ipID, s.cfg.RateLimitPerMinute) {
			return
		}
		if err == nil || errors.Is(err, domain.ErrUnauthorized) {
			err = domain.ErrUnauthorized
		}
		fail(c, err)
		return
	}
	c.Set(keyIDKey, key.ID)
	if !s.limit(c, "key:"+key.ID, key.RateLimitPerMinute) {
		return
	}
	if !key.AllowsIP(c.ClientIP()) {
		fail(c, domain.Forbidden("requests from this address are not allowed for this key"))
		return
	}
	c.Set(keyCtxKey, key)
	c.Set(acctCtxKey, acct)
	c.Next()
}

// require builds the permission check of one route from the route table.
func require(perm string) gin.HandlerFunc {
	return func(c *gin.Context) {
		if perm != "" && !keyOf(c).Allows(perm) {
			fail(c, domain.Forbidden("this API key lacks the permission %s", perm))
			return
		}
		c.Next()
	}
}

// requireFeature refuses a route whose account feature the operator has not
// enabled (403), whatever the request carries.
func requireFeature(feature string) gin.HandlerFunc {
	return func(c *gin.Context) {
		if feature != "" && !accountOf(c).Features.Enabled(feature) {
			fail(c, domain.Forbidden("the feature %s is not enabled for this account", feature))
			return
		}
		c.Next()
	}
}

func keyOf(c *gin.Context) domain.APIKey      { return c.MustGet(keyCtxKey).(domain.APIKey) }
func accountOf(c *gin.Context) domain.Account { return c.MustGet(acctCtxKey).(domain.Account) }

// adminOnly guards /admin/v1 with the admin token, compared in constant time.
func (s *Server) adminOnly(c *gin.Context) {
	// Its own budget per address, before the token is even looked at.
	budget := s.cfg.AdminRateLimitPerMinute
	if budget <= 0 {
		budget = config.DefaultAdminRateLimit
	}
	if !s.limit(c, "admin:"+c.ClientIP(), budget) {
		return
	}
	got := c.GetHeader("X-Admin-Token")
	if s.cfg.AdminToken == "" || subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.AdminToken)) != 1 {
		fail(c, &domain.Error{Kind: domain.ErrUnauthorized, Message: "missing or invalid X-Admin-Token"})
		return
	}
	c.Next()
}
