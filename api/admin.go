package api

import (
	"encoding/json"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

func (s *Server) adminCreateAccount(c *gin.Context) {
	bindAndAct[domain.NewAccount, domain.AccountRequest](c, "Account created", func(n domain.NewAccount) (any, error) {
		return s.Accounts.Create(c.Request.Context(), n)
	})
}

// adminListAccounts is a page of the accounts, newest first; search finds
// one by id, or by part of its name, e-mail or document.
func (s *Server) adminListAccounts(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Accounts.List(c.Request.Context(), strings.TrimSpace(c.Query("search")), f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Accounts", pageOf(rows, f, total, func(a domain.Account) domain.Account { return a }))
}

func (s *Server) adminGetAccount(c *gin.Context) {
	acct, err := s.Accounts.Get(c.Request.Context(), c.Param("id"))
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
	// The partial features and fees are bound onto the stored ones, which
	// the use case reads and hands to merge.
	merge := func(acct domain.Account) (service.AccountPatch, error) {
		p := service.AccountPatch{Verified: b.Verified, SecurityReviewThreshold: b.SecurityReviewThreshold}
		if b.Features != nil {
			f := acct.Features
			if err := bindObject(b.Features, reflectValue(&f), "features."); err != nil {
				return p, err
			}
			p.Features = &f
		}
		if b.Fees != nil {
			f := acct.Fees
			if err := bindObject(b.Fees, reflectValue(&f), "fees."); err != nil {
				return p, err
			}
			if err := f.Validate(); err != nil {
				return p, err
			}
			p.Fees = &f
		}
		return p, domain.ValidThreshold(b.SecurityReviewThreshold)
	}
	acct, err := s.Accounts.Patch(c.Request.Context(), c.Param("id"), merge)
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
	bindAndAct[domain.NewKey, domain.KeyRequest](c, "API key created; the key is shown only now", func(n domain.NewKey) (any, error) {
		if n.RateLimitPerMinute == 0 {
			n.RateLimitPerMinute = s.cfg.RateLimitPerMinute
		}
		k, secret, err := s.Accounts.CreateKey(c.Request.Context(), c.Param("id"), n)
		return createdKey{APIKey: k, Key: secret}, err
	})
}

func (s *Server) adminRevokeKey(c *gin.Context) {
	k, err := s.Accounts.RevokeKey(c.Request.Context(), c.Param("id"))
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
	bindAndAct[domain.NewAdjustment, domain.AdjustmentRequest](c, "Adjustment posted", func(n domain.NewAdjustment) (any, error) {
		t, err := s.Accounts.Adjust(c.Request.Context(), c.Param("id"), n, c.GetHeader("Idempotency-Key"))
		return t.Public(s.cfg.PublicURL), err
	})
}

// ledgerCheck answers the ledger check: ok, or the problems found.
type ledgerCheck struct {
	OK       bool     `json:"ok"`
	Problems []string `json:"problems"`
}

func (s *Server) adminVerifyLedger(c *gin.Context) {
	problems, err := s.Accounts.VerifyLedger(c.Request.Context())
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Ledger verified", ledgerCheck{OK: len(problems) == 0, Problems: problems})
}
