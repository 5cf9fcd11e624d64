package api

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/dashboard"
	"github.com/jangada/jangada/service"
)

// The dashboard's people: the sign-up, an invitation's password, the
// users' page, the audit log and the second factor.

// dashSignupPage is the sign-up form, when sign-up is open.
func (s *Server) dashSignupPage(c *gin.Context) {
	if !s.cfg.DashboardSignup {
		dashRender(c, http.StatusNotFound, "gone.html", "Cadastro fechado",
			dashPage{Error: "O cadastro pelo painel não está aberto. Fale com a Jangada para abrir uma conta."})
		return
	}
	dashRender(c, http.StatusOK, "dashboard_signup.html", "Criar conta", dashPage{})
}

// dashSignup makes an unverified account and its owner, and logs the
// owner in (303 to the dashboard); a refused field shows the form again
// (400), too many sign-ups from the address a 429 with Retry-After.
func (s *Server) dashSignup(c *gin.Context) {
	if !s.cfg.DashboardSignup {
		s.dashSignupPage(c)
		return
	}
	name, email, doc, password := c.PostForm("name"), c.PostForm("email"), c.PostForm("document"), c.PostForm("password")
	form := dashPage{Name: name, Email: email, Document: doc}
	in, err := dashboard.SignupRequest{Account: domain.AccountRequest{Name: &name, Email: &email, Document: &doc},
		Password: &password}.Validate()
	var u service.DashboardUser
	if err == nil {
		u, err = s.Dashboard.Signup(c.Request.Context(), in, c.ClientIP())
	}
	var throttled *service.ThrottledError
	var de *domain.Error
	switch {
	case err == nil:
		s.dashArea.answerLogin(c, u.User.ID, u.Epoch, nil, areaForm{})
	case errors.As(err, &throttled):
		c.Header("Retry-After", strconv.Itoa(int(throttled.RetryAfter.Seconds())+1))
		form.Error = "Muitos cadastros a partir deste endereço. Tente novamente mais tarde."
		dashRender(c, http.StatusTooManyRequests, "dashboard_signup.html", "Criar conta", form)
	case errors.As(err, &de) && statusOf(err) == http.StatusBadRequest:
		field, _, _ := strings.Cut(de.Message, " ")
		form.Error, form.Detail = "Confira o campo "+fieldName(field)+".", de.Message
		dashRender(c, http.StatusBadRequest, "dashboard_signup.html", "Criar conta", form)
	default:
		dashFail(c, err)
	}
}

// dashSetPasswordPage is an invitation's page: the form that sets the
// password, while the link is valid.
func (s *Server) dashSetPasswordPage(c *gin.Context) {
	live, err := s.Dashboard.InviteLive(c.Request.Context(), c.Param("token"))
	if err != nil || !live {
		dashFail(c, errors.Join(err, domain.NotFound("invitation")))
		return
	}
	dashRender(c, http.StatusOK, "dashboard_setpw.html", "Definir senha", dashPage{Token: c.Param("token")})
}

// dashSetPassword sets the invited user's password and answers 303 to
// the login; a password out of the rule shows the form again (400).
func (s *Server) dashSetPassword(c *gin.Context) {
	token, password := c.Param("token"), c.PostForm("password")
	err := s.Dashboard.SetPassword(c.Request.Context(), token, &password)
	if errors.Is(err, domain.ErrInvalid) {
		dashRender(c, http.StatusBadRequest, "dashboard_setpw.html", "Definir senha", dashPage{Token: token,
			Error: "A senha precisa de 8 a 128 caracteres, com letra maiúscula, letra minúscula, número e símbolo."})
		return
	}
	if err != nil {
		dashFail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, "/dashboard/login")
}

// dashUsers lists the account's users and the invitation form.
func (s *Server) dashUsers(c *gin.Context) {
	s.renderUsers(c, http.StatusOK, dashPage{})
}

func (s *Server) renderUsers(c *gin.Context, status int, p dashPage) {
	us, err := s.Dashboard.Users(c.Request.Context(), userOf(c))
	if err != nil {
		dashFail(c, err)
		return
	}
	p.Users, p.Roles = us, dashboard.Roles
	dashRender(c, status, "dashboard_users.html", "Usuários", p)
}

// dashInvite invites a user (email, role) and shows the link that sets
// its password this once (data-secret): the one who invites hands it on.
func (s *Server) dashInvite(c *gin.Context) {
	email, role := c.PostForm("email"), c.PostForm("role")
	in, err := dashboard.InviteRequest{Email: &email, Role: &role}.Validate()
	if err != nil {
		dashFail(c, err)
		return
	}
	u := userOf(c)
	inv, err := s.Dashboard.Invite(c.Request.Context(), u.Account.ID, &u, in)
	if err != nil {
		dashFail(c, err)
		return
	}
	s.renderUsers(c, http.StatusOK, dashPage{InviteURL: inv.URL, Email: inv.User.Email})
}

// dashRemoveUser removes a user; its sessions end at once.
func (s *Server) dashRemoveUser(c *gin.Context) {
	if err := s.Dashboard.RemoveUser(c.Request.Context(), userOf(c), c.Param("id")); err != nil {
		dashFail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, "/dashboard/users")
}

// dashAudit is the audit log, newest first, 100 entries a page.
func (s *Server) dashAudit(c *gin.Context) {
	before, err := strconv.ParseInt(c.DefaultQuery("before", "0"), 10, 64)
	if err != nil || before < 0 {
		dashFail(c, domain.Invalid("before", "must be an entry number"))
		return
	}
	es, err := s.Dashboard.AuditLog(c.Request.Context(), userOf(c), before)
	if err != nil {
		dashFail(c, err)
		return
	}
	p := dashPage{Audit: es}
	if len(es) == 100 {
		p.NextAuditPage = "/dashboard/audit?before=" + strconv.FormatInt(es[len(es)-1].ID, 10)
	}
	dashRender(c, http.StatusOK, "dashboard_audit.html", "Registro de auditoria", p)
}
