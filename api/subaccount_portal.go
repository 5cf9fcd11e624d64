package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/subaccount"
)

// The sub-account portal routes. No answer ever carries the password hash.

func (s *Server) portalSetup(c *gin.Context) {
	create[subaccount.PortalSetup, subaccount.PortalSetupRequest](c, "Portal ready", func(p subaccount.PortalSetup) (any, error) {
		return gin.H{"success": true, "mode": "portal_ready"}, s.Subaccounts.PortalSetup(c.Request.Context(), accountOf(c), p)
	})
}

func (s *Server) portalStatus(c *gin.Context) {
	ref := ""
	if c.Query("id") != "" || c.Query("externalReference") != "" {
		var err error
		if ref, err = queryRef(c); err != nil {
			fail(c, err)
			return
		}
	}
	items, err := s.Subaccounts.PortalStatus(c.Request.Context(), accountOf(c), ref)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Portal status", items)
}

func (s *Server) portalUpdateEmail(c *gin.Context) {
	create[subaccount.PortalEmail, subaccount.PortalEmailRequest](c, "Portal e-mail updated", func(p subaccount.PortalEmail) (any, error) {
		return s.Subaccounts.PortalUpdateEmail(c.Request.Context(), accountOf(c), p)
	})
}

func (s *Server) portalRevoke(c *gin.Context) {
	create[string, subaccount.Ref](c, "Portal revoked", func(ref string) (any, error) {
		return s.Subaccounts.PortalRevoke(c.Request.Context(), accountOf(c), ref)
	})
}

func (s *Server) portalReset2FA(c *gin.Context) {
	create[string, subaccount.Ref](c, "Portal two-factor authentication reset", func(ref string) (any, error) {
		return s.Subaccounts.PortalReset2FA(c.Request.Context(), accountOf(c), ref)
	})
}
