package api

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

type createAccountBody struct {
	Name     *string `json:"name"`
	Email    *string `json:"email"`
	Document *string `json:"document"`
}

func (s *Server) adminCreateAccount(c *gin.Context) {
	var b createAccountBody
	if err := bind(c, &b); err != nil {
		fail(c, err)
		return
	}
	name, err := domain.Text("name", b.Name, 1, 120, true)
	if err != nil {
		fail(c, err)
		return
	}
	email, err := domain.Email("email", b.Email)
	if err != nil {
		fail(c, err)
		return
	}
	doc, err := domain.TaxID("document", b.Document)
	if err != nil {
		fail(c, err)
		return
	}
	acct, err := service.NewAccount(c.Request.Context(), s.db, name, email, doc)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Account created", acct)
}

func (s *Server) adminGetAccount(c *gin.Context) {
	acct, err := db.GetAccount(c.Request.Context(), s.db, c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Account", acct)
}

type patchAccountBody struct {
	Verified                *bool           `json:"verified"`
	Features                json.RawMessage `json:"features"`
	Fees                    json.RawMessage `json:"fees"`
	SecurityReviewThreshold *money.Cents    `json:"securityReviewThreshold"`
}

// adminPatchAccount merges partial features and fees onto the current ones.
func (s *Server) adminPatchAccount(c *gin.Context) {
	var b patchAccountBody
	if err := bind(c, &b); err != nil {
		fail(c, err)
		return
	}
	acct, err := db.GetAccount(c.Request.Context(), s.db, c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	p := db.AccountPatch{Verified: b.Verified, SecurityReviewThreshold: b.SecurityReviewThreshold}
	if b.Features != nil {
		f := acct.Features
		if err := bindObject(b.Features, reflectValue(&f), "features."); err != nil {
			fail(c, err)
			return
		}
		p.Features = &f
	}
	if b.Fees != nil {
		f := acct.Fees
		if err := bindObject(b.Fees, reflectValue(&f), "fees."); err != nil {
			fail(c, err)
			return
		}
		if f.PixInFixed < 0 || f.PixOutFixed < 0 || f.PixInPercent < 0 || f.PixOutPercent < 0 ||
			f.PixInPercent >= money.OneHundredPercent || f.PixOutPercent >= money.OneHundredPercent {
			fail(c, domain.Invalid("fees", "must be non-negative, with percentages below 100"))
			return
		}
		p.Fees = &f
	}
	if b.SecurityReviewThreshold != nil && *b.SecurityReviewThreshold < 0 {
		fail(c, domain.Invalid("securityReviewThreshold", "must not be negative"))
		return
	}
	acct, err = db.UpdateAccount(c.Request.Context(), s.db, acct.ID, p)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Account updated", acct)
}

type createKeyBody struct {
	Name               *string  `json:"name"`
	Permissions        []string `json:"permissions"`
	IPAllowlist        []string `json:"ipAllowlist"`
	RateLimitPerMinute *int     `json:"rateLimitPerMinute"`
}

var permissionPattern = regexp.MustCompile(`^(\*|[a-z0-9-]+(/[a-z0-9-]+)*(/\*)?)$`)

type createdKey struct {
	domain.APIKey
	Key string `json:"key"`
}

func (s *Server) adminCreateKey(c *gin.Context) {
	var b createKeyBody
	if err := bind(c, &b); err != nil {
		fail(c, err)
		return
	}
	name, err := domain.Text("name", b.Name, 1, 120, true)
	if err != nil {
		fail(c, err)
		return
	}
	if len(b.Permissions) == 0 {
		fail(c, domain.Invalid("permissions", "must list at least one permission"))
		return
	}
	for _, p := range b.Permissions {
		if !permissionPattern.MatchString(p) {
			fail(c, domain.Invalid("permissions", "has %q, which is not of the form group/action, group/* or *", p))
			return
		}
	}
	for _, cidr := range b.IPAllowlist {
		if !ValidCIDR(strings.TrimSpace(cidr)) {
			fail(c, domain.Invalid("ipAllowlist", "has %q, which is not a CIDR or an IP address", cidr))
			return
		}
	}
	rate := s.cfg.RateLimitPerMinute
	if b.RateLimitPerMinute != nil {
		if *b.RateLimitPerMinute < 1 || *b.RateLimitPerMinute > 1_000_000 {
			fail(c, domain.Invalid("rateLimitPerMinute", "must be from 1 to 1000000"))
			return
		}
		rate = *b.RateLimitPerMinute
	}
	acct, err := db.GetAccount(c.Request.Context(), s.db, c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ips := b.IPAllowlist
	if ips == nil {
		ips = []string{}
	}
	k, secret, err := service.NewKey(c.Request.Context(), s.db, acct.ID, service.KeySpec{
		Name: name, Permissions: b.Permissions, IPAllowlist: ips, RateLimitPerMinute: rate,
	})
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "API key created; the key is shown only now", createdKey{APIKey: k, Key: secret})
}

func (s *Server) adminRevokeKey(c *gin.Context) {
	k, err := db.RevokeKey(c.Request.Context(), s.db, c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	if s.KeyRevoked != nil {
		s.KeyRevoked(k.ID)
	}
	ok(c, "API key revoked", k)
}

type adjustmentBody struct {
	Amount      *money.Cents `json:"amount"`
	Description *string      `json:"description"`
}

func (s *Server) adminAdjust(c *gin.Context) {
	var b adjustmentBody
	if err := bind(c, &b); err != nil {
		fail(c, err)
		return
	}
	if b.Amount == nil || *b.Amount == 0 {
		fail(c, domain.Invalid("amount", "is required and must not be zero"))
		return
	}
	desc, err := domain.Text("description", b.Description, 1, 180, true)
	if err != nil {
		fail(c, err)
		return
	}
	acct, err := db.GetAccount(c.Request.Context(), s.db, c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	t, err := service.Adjust(c.Request.Context(), s.db, acct.ID, *b.Amount, desc, c.GetHeader("Idempotency-Key"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Adjustment posted", t.Public(s.cfg.PublicURL))
}

func (s *Server) adminVerifyLedger(c *gin.Context) {
	problems, err := db.VerifyLedger(c.Request.Context(), s.db)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Ledger verified", gin.H{"ok": len(problems) == 0, "problems": problems})
}
