package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain/dashboard"
)

// invitedUser answers an operator's invitation: the user and the link
// that sets its password (absolute, single use, valid 24 hours), shown
// this once.
type invitedUser struct {
	ID             string `json:"id"`
	Email          string `json:"email"`
	Role           string `json:"role"`
	SetPasswordURL string `json:"setPasswordUrl"`
}

// adminInviteUser invites a dashboard user to an account (any role: the
// operator makes an account's first owner).
func (s *Server) adminInviteUser(c *gin.Context) {
	bindAndAct[dashboard.Invite, dashboard.InviteRequest](c, "Dashboard user invited; the link is shown only now", func(in dashboard.Invite) (any, error) {
		inv, err := s.Dashboard.Invite(c.Request.Context(), c.Param("id"), nil, in)
		return invitedUser{ID: inv.User.ID, Email: inv.User.Email, Role: inv.User.Role, SetPasswordURL: inv.URL}, err
	})
}
