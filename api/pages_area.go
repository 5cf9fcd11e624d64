package api

import (
	"context"
	"errors"
	"html/template"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/qr"
	"github.com/jangada/jangada/service"
)

// What every area behind a login (the sub-account portal, the merchant
// dashboard) does alike: the login's answer, the logout, the middleware
// that turns a session into its user, and the second factor's pages. Each
// area gives its sessions, its paths and how it renders and fails.

// The session values every area keeps beside its user's id: the epoch the
// session was opened under, and a TOTP secret being enrolled (sealed).
const (
	sessionEpoch  = "epoch"
	sessionEnroll = "enroll"
)

// areaForm is what the shared pages (login.html, twofactor.html,
// twofactor_done.html) read of an area's page, through pageData.Shared.
type areaForm struct {
	Error, Email    string
	AskCode         bool
	SignupOpen      bool
	Secret, OTPAuth string
	QR              template.URL
	RecoveryCodes   []string
	// Enrolled: the user has a second factor already.
	Enrolled bool
}

// Shared is the area's part of the shared pages.
func (d pageData) Shared() areaForm {
	if d.Area == "dashboard" {
		p := d.Dash
		return areaForm{Error: p.Error, Email: p.Email, AskCode: p.AskCode, SignupOpen: p.SignupOpen, Secret: p.Secret,
			OTPAuth: p.OTPAuth, QR: p.QR, RecoveryCodes: p.RecoveryCodes, Enrolled: p.User.User.TwoFactor}
	}
	p := d.Portal
	return areaForm{Error: p.Error, Email: p.Email, AskCode: p.AskCode, Secret: p.Secret, OTPAuth: p.OTPAuth, QR: p.QR,
		RecoveryCodes: p.RecoveryCodes, Enrolled: p.Holder.Subaccount.PortalTwoFactor}
}

// area is one area behind a login.
type area struct {
	sessions *webSessions
	// idKey names the user's id in the session; userKey the user in the
	// request's context.
	idKey, userKey string
	// home and login are the area's paths ("/portal/", "/portal/login").
	home, login string
	// show renders one of the shared pages with the area's page made of f.
	show func(c *gin.Context, status int, name, title string, f areaForm)
	// fail renders err as the area does; unavailable is its 503 page.
	fail        func(c *gin.Context, err error)
	unavailable func(c *gin.Context)
}

// answerLogin answers a login form: 303 to the area with a new session
// holding the user's id and epoch, or the login page with the refusal
// (loginRefusal), or the area's unavailable page.
func (a area) answerLogin(c *gin.Context, id string, epoch int64, err error, form areaForm) {
	if err == nil {
		if err := a.sessions.start(c, map[string]any{a.idKey: id, sessionEpoch: epoch}); err != nil {
			a.unavailable(c)
			return
		}
		c.Redirect(http.StatusSeeOther, a.home)
		return
	}
	status, msg, askCode, known := loginRefusal(c, err)
	if !known {
		a.unavailable(c)
		return
	}
	form.Error, form.AskCode = msg, askCode
	a.show(c, status, "login.html", "Entrar", form)
}

// logout ends the session and answers the login page.
func (a area) logout(c *gin.Context) {
	if err := a.sessions.end(c); err != nil {
		a.unavailable(c)
		return
	}
	c.Redirect(http.StatusSeeOther, a.login)
}

// require lets a request through with the session's user (load's answer,
// kept under userKey), or answers 303 to the login page: no session, or
// one that has ended (load answers service.ErrSessionEnded), which is
// destroyed.
func (a area) require(load func(ctx context.Context, id string, epoch int64, c *gin.Context) (any, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx := c.Request.Context()
		id := a.sessions.sm.GetString(ctx, a.idKey)
		if id == "" {
			c.Redirect(http.StatusSeeOther, a.login)
			c.Abort()
			return
		}
		u, err := load(ctx, id, a.sessions.sm.GetInt64(ctx, sessionEpoch), c)
		switch {
		case errors.Is(err, service.ErrSessionEnded):
			if err := a.sessions.end(c); err != nil {
				a.unavailable(c)
			} else {
				c.Redirect(http.StatusSeeOther, a.login)
			}
			c.Abort()
		case err != nil:
			a.unavailable(c)
			c.Abort()
		default:
			c.Set(a.userKey, u)
			c.Next()
		}
	}
}

// enrollPage shows a new TOTP secret to enroll (begin's): as a QR code, as
// its otpauth:// URI (data-otpauth) and as the text to type. The secret
// waits, sealed, in the session until a code confirms it.
func (a area) enrollPage(c *gin.Context, begin func(context.Context) (service.Enrollment, error)) {
	e, err := begin(c.Request.Context())
	if err != nil {
		a.fail(c, err)
		return
	}
	img, err := qr.DataURI(e.URI)
	if err != nil {
		a.fail(c, err)
		return
	}
	a.sessions.sm.Put(c.Request.Context(), sessionEnroll, e.Sealed)
	a.show(c, http.StatusOK, "twofactor.html", "Verificação em duas etapas",
		areaForm{Secret: e.Secret, OTPAuth: e.URI, QR: template.URL(img)}) // #nosec G203 -- a data: URI this server drew
}

// enrollConfirm enrolls the secret being shown once the form's code is
// one of its codes (confirm): 200 with the ten recovery codes, shown this
// once; a wrong code is a 400 and the same secret stays to try again.
func (a area) enrollConfirm(c *gin.Context, confirm func(ctx context.Context, sealed, code string) ([]string, int64, error)) {
	ctx := c.Request.Context()
	codes, epoch, err := confirm(ctx, a.sessions.sm.GetString(ctx, sessionEnroll), c.PostForm("code"))
	if errors.Is(err, domain.ErrInvalid) {
		a.show(c, http.StatusBadRequest, "twofactor.html", "Verificação em duas etapas",
			areaForm{Error: "Código incorreto. Confira o horário do seu celular e digite o código que o aplicativo mostra agora."})
		return
	}
	if err != nil {
		if errors.Is(err, service.ErrSessionEnded) {
			_ = a.sessions.end(c)
		}
		a.fail(c, err)
		return
	}
	// This session goes on under the new epoch; the others have ended.
	a.sessions.sm.Remove(ctx, sessionEnroll)
	a.sessions.sm.Put(ctx, sessionEpoch, epoch)
	a.show(c, http.StatusOK, "twofactor_done.html", "Verificação em duas etapas ativada", areaForm{RecoveryCodes: codes})
}
