package api

import (
	"encoding/json"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

func (s *Server) adminCreateAccount(c *gin.Context) {
	create[domain.NewAccount, domain.AccountRequest](c, "Account created", func(n domain.NewAccount) (any, error) {
		return service.NewAccount(c.Request.Context(), s.db, n.Name, n.Email, n.Document)
	})
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
		if err := f.Validate(); err != nil {
			fail(c, err)
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

type createdKey struct {
	domain.APIKey
	Key string `json:"key"`
}

func (s *Server) adminCreateKey(c *gin.Context) {
	create[domain.NewKey, domain.KeyRequest](c, "API key created; the key is shown only now", func(n domain.NewKey) (any, error) {
		acct, err := db.GetAccount(c.Request.Context(), s.db, c.Param("id"))
		if err != nil {
			return nil, err
		}
		if n.RateLimitPerMinute == 0 {
			n.RateLimitPerMinute = s.cfg.RateLimitPerMinute
		}
		k, secret, err := service.NewKey(c.Request.Context(), s.db, acct.ID, n)
		return createdKey{APIKey: k, Key: secret}, err
	})
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

func (s *Server) adminAdjust(c *gin.Context) {
	create[domain.NewAdjustment, domain.AdjustmentRequest](c, "Adjustment posted", func(n domain.NewAdjustment) (any, error) {
		acct, err := db.GetAccount(c.Request.Context(), s.db, c.Param("id"))
		if err != nil {
			return nil, err
		}
		t, err := service.Adjust(c.Request.Context(), s.db, acct.ID, n.Amount, n.Description, c.GetHeader("Idempotency-Key"))
		return t.Public(s.cfg.PublicURL), err
	})
}

func (s *Server) adminVerifyLedger(c *gin.Context) {
	problems, err := db.VerifyLedger(c.Request.Context(), s.db)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Ledger verified", gin.H{"ok": len(problems) == 0, "problems": problems})
}
