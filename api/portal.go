package api

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/portal.go -package=apimock . Portal

// Portal is the sub-account portal's use cases (service.Portal): a
// holder's login, what the holder reads, the PIX charges the holder makes
// into the sub-account and the second factor's enrollment.
type Portal interface {
	Login(ctx context.Context, in service.PortalLogin) (service.PortalHolder, error)
	Holder(ctx context.Context, subID string, epoch int64) (service.PortalHolder, error)
	Balance(ctx context.Context, h service.PortalHolder) (subaccount.Balance, error)
	Statement(ctx context.Context, h service.PortalHolder, f service.ListFilter) ([]domain.Transaction, int, error)
	Record(ctx context.Context, h service.PortalHolder, id string, types ...string) (domain.Transaction, error)
	CreateCharge(ctx context.Context, h service.PortalHolder, in domain.NewCharge) (service.CreatedCharge, error)
	BeginTwoFactor(ctx context.Context, h service.PortalHolder) (service.Enrollment, error)
	ConfirmTwoFactor(ctx context.Context, h service.PortalHolder, sealed, code string) ([]string, int64, error)
}

// portalCookie names the portal's session cookie (__Host-jangada_portal
// over https).
const portalCookie = "jangada_portal"

// The portal session's holder (a sub-account's id), and the holder in a
// request's context.
const (
	portalSub = "sub"
	holderKey = "portalHolder"
)

// loginFailed is the one message of every failed login: it tells nobody
// whether an e-mail has a portal, or why one cannot log in.
const loginFailed = "E-mail, senha ou código incorretos. Se o seu acesso foi desativado, peça um novo a quem administra a sua conta."

// mountPortal adds the sub-account portal to the pages' group
// (docs/portal.md): its own session cookie, the login, and the holder's
// pages behind it.
func (s *Server) mountPortal(pages *gin.RouterGroup) {
	if s.Portal == nil || s.Sessions == nil {
		return
	}
	s.portalSessions = newWebSessions(s.Sessions, portalCookie, s.cfg.PublicURL)
	s.portalArea = area{sessions: s.portalSessions, idKey: portalSub, userKey: holderKey, home: "/portal/", login: "/portal/login",
		show: func(c *gin.Context, status int, name, title string, f areaForm) {
			portalRender(c, status, name, title, portalPage{Error: f.Error, Email: f.Email, AskCode: f.AskCode, Secret: f.Secret,
				OTPAuth: f.OTPAuth, QR: f.QR, RecoveryCodes: f.RecoveryCodes})
		},
		fail: func(c *gin.Context, err error) { portalFail(c, err, nil) }, unavailable: portalUnavailable}
	p := pages.Group("/portal", s.portalSessions.load)
	p.GET("/login", s.portalLoginPage)
	p.POST("/login", s.portalLogin)
	p.POST("/logout", s.portalArea.logout)
	// The holder of a session that has ended (the portal revoked, its
	// e-mail changed, its second factor reset, the sub-account disabled or
	// deleted) is sent to the login.
	in := p.Group("", s.portalArea.require(func(ctx context.Context, id string, epoch int64, _ *gin.Context) (any, error) {
		return s.Portal.Holder(ctx, id, epoch)
	}))
	in.GET("/", s.portalHome)
	in.GET("/statement", s.portalStatement)
	in.GET("/statement.csv", s.portalStatementCSV)
	in.GET("/statement/:id", s.portalRecord)
	in.POST("/charges", s.portalCreateCharge)
	in.GET("/charges/:id", s.portalCharge)
	in.GET("/charges/:id/events", s.portalChargeEvents)
	in.GET("/security/2fa", func(c *gin.Context) {
		s.portalArea.enrollPage(c, func(ctx context.Context) (service.Enrollment, error) {
			return s.Portal.BeginTwoFactor(ctx, holderOf(c))
		})
	})
	in.POST("/security/2fa", func(c *gin.Context) {
		s.portalArea.enrollConfirm(c, func(ctx context.Context, sealed, code string) ([]string, int64, error) {
			return s.Portal.ConfirmTwoFactor(ctx, holderOf(c), sealed, code)
		})
	})
}

// portalRender renders a portal page: the holder's account names it.
func portalRender(c *gin.Context, status int, name, title string, p portalPage) {
	merchant := "Portal da subconta"
	if h, ok := c.Get(holderKey); ok {
		p.Holder = h.(service.PortalHolder)
		p.In = true
		merchant = p.Holder.Account.Name
	}
	render(c, status, name, pageData{Title: title, Merchant: merchant, Area: "portal", Portal: p, Error: p.Error})
}

// portalLoginPage is the login form; a browser with a session goes to
// the portal instead (the portal checks that the session still holds).
func (s *Server) portalLoginPage(c *gin.Context) {
	if s.portalSessions.sm.GetString(c.Request.Context(), portalSub) != "" {
		c.Redirect(http.StatusSeeOther, "/portal/")
		return
	}
	portalRender(c, http.StatusOK, "login.html", "Entrar", portalPage{})
}

// portalLogin answers a login form: 303 to the portal with a new session,
// 401 with the generic message (or asking for the code), 429 with
// Retry-After once the e-mail or the address spent its failures.
func (s *Server) portalLogin(c *gin.Context) {
	in := service.PortalLogin{Email: c.PostForm("email"), Password: c.PostForm("password"), Code: c.PostForm("code"),
		Address: c.ClientIP(), UserAgent: c.Request.UserAgent()}
	h, err := s.Portal.Login(c.Request.Context(), in)
	s.portalArea.answerLogin(c, h.Subaccount.ID, h.Epoch, err, areaForm{Email: in.Email})
}

// loginRefusal is how every area's login form shows a refusal: 429 with
// Retry-After once the e-mail or the address spent its failures, 401
// asking for the code, 401 with the one generic message; known is false
// for a failure that is not the visitor's (the area's unavailable page).
func loginRefusal(c *gin.Context, err error) (status int, msg string, askCode, known bool) {
	var throttled *service.ThrottledError
	switch {
	case errors.As(err, &throttled):
		secs := int(math.Ceil(throttled.RetryAfter.Seconds()))
		c.Header("Retry-After", strconv.Itoa(secs))
		return http.StatusTooManyRequests, "Muitas tentativas sem sucesso. Tente novamente em " + strconv.Itoa((secs+59)/60) + " minuto(s).", false, true
	case errors.Is(err, service.ErrCodeNeeded):
		return http.StatusUnauthorized, "Digite o código do seu aplicativo autenticador (ou um código de recuperação) e a sua senha.", true, true
	case errors.Is(err, service.ErrLoginFailed):
		return http.StatusUnauthorized, loginFailed, false, true
	}
	return 0, "", false, false
}

func holderOf(c *gin.Context) service.PortalHolder {
	return c.MustGet(holderKey).(service.PortalHolder)
}

// portalUnavailable is the page of a failure that is not the holder's.
func portalUnavailable(c *gin.Context) {
	portalRender(c, http.StatusServiceUnavailable, "gone.html", "Indisponível",
		portalPage{Error: "Não foi possível concluir agora. Tente novamente em instantes."})
}

// portalFail renders err as the portal shows it, in Portuguese: the
// form's own words for a refused field (fields), a missing record, a
// refusal of the account's, or unavailable.
func portalFail(c *gin.Context, err error, fields map[string]string) {
	status := statusOf(err)
	msg := "Não foi possível concluir. Confira os dados e tente de novo."
	for field, text := range fields {
		if errors.Is(err, domain.ErrInvalid) && strings.HasPrefix(err.Error(), field+" ") {
			msg = text
		}
	}
	switch {
	case errors.Is(err, service.ErrSessionEnded):
		c.Redirect(http.StatusSeeOther, "/portal/login")
		return
	case status == http.StatusNotFound:
		msg = "Este registro não existe nesta subconta."
	case status == http.StatusForbidden:
		msg = "A sua subconta não pode fazer isto agora. Fale com quem administra a sua conta."
	case status >= http.StatusInternalServerError:
		portalUnavailable(c)
		return
	}
	portalRender(c, status, "gone.html", "Não foi possível", portalPage{Error: msg})
}
