package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain/subaccount"
)

// The sub-account portal routes. No answer ever carries the password hash.

// modePortalReady is a portal setup's mode (the spec's).
const modePortalReady = "portal_ready"

// portalReady answers a portal setup.
type portalReady struct {
	Success bool   `json:"success"`
	Mode    string `json:"mode"`
}

func (s *Server) portalSetup(c *gin.Context) {
	bindAndAct[subaccount.PortalSetup, subaccount.PortalSetupRequest](c, "Portal ready", func(p subaccount.PortalSetup) (any, error) {
		return portalReady{Success: true, Mode: modePortalReady}, s.Subaccounts.PortalSetup(c.Request.Context(), accountOf(c), p)
	})
}

// portalStatus answers one sub-account's portal when the query names it
// (data = the record), else a page of them all (data = the list envelope).
func (s *Server) portalStatus(c *gin.Context) {
	if c.Query("id") != "" || c.Query("externalReference") != "" {
		ref, err := queryRef(c)
		if err != nil {
			fail(c, err)
			return
		}
		item, err := s.Subaccounts.PortalStatus(c.Request.Context(), accountOf(c), ref)
		if err != nil {
			fail(c, err)
			return
		}
		ok(c, "Portal status", item)
		return
	}
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	items, total, err := s.Subaccounts.ListPortals(c.Request.Context(), accountOf(c), f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Portal status", pageOf(items, f, total, func(p subaccount.PortalItem) subaccount.PortalItem { return p }))
}

func (s *Server) portalUpdateEmail(c *gin.Context) {
	bindAndAct[subaccount.PortalEmail, subaccount.PortalEmailRequest](c, "Portal e-mail updated", func(p subaccount.PortalEmail) (any, error) {
		return s.Subaccounts.PortalUpdateEmail(c.Request.Context(), accountOf(c), p)
	})
}

func (s *Server) portalRevoke(c *gin.Context) {
	bindAndAct[string, subaccount.Ref](c, "Portal revoked", func(ref string) (any, error) {
		return s.Subaccounts.PortalRevoke(c.Request.Context(), accountOf(c), ref)
	})
}

func (s *Server) portalReset2FA(c *gin.Context) {
	bindAndAct[string, subaccount.Ref](c, "Portal two-factor authentication reset", func(ref string) (any, error) {
		return s.Subaccounts.PortalReset2FA(c.Request.Context(), accountOf(c), ref)
	})
}
