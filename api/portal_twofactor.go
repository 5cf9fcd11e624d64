package api

import (
	"errors"
	"html/template"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/qr"
	"github.com/jangada/jangada/service"
)

// portalTwoFactorPage shows a new TOTP secret to enroll: as a QR code, as
// its otpauth:// URI (data-otpauth) and as the text to type. The secret
// waits, sealed, in the session until a code confirms it.
func (s *Server) portalTwoFactorPage(c *gin.Context) {
	e, err := s.Portal.BeginTwoFactor(c.Request.Context(), holderOf(c))
	if err != nil {
		portalFail(c, err, nil)
		return
	}
	img, err := qr.DataURI(e.URI)
	if err != nil {
		portalFail(c, err, nil)
		return
	}
	s.portalSessions.sm.Put(c.Request.Context(), portalEnroll, e.Sealed)
	portalRender(c, http.StatusOK, "portal_2fa.html", "Verificação em duas etapas",
		portalPage{Secret: e.Secret, OTPAuth: e.URI, QR: template.URL(img)}) // #nosec G203 -- a data: URI this server drew
}

// portalTwoFactorConfirm enrolls the secret being shown once the form's
// code is one of its codes: 200 with the ten recovery codes, shown this
// once; a wrong code is a 400 and the same secret stays to try again.
func (s *Server) portalTwoFactorConfirm(c *gin.Context) {
	ctx := c.Request.Context()
	sealed := s.portalSessions.sm.GetString(ctx, portalEnroll)
	codes, epoch, err := s.Portal.ConfirmTwoFactor(ctx, holderOf(c), sealed, c.PostForm("code"))
	if errors.Is(err, domain.ErrInvalid) {
		portalRender(c, http.StatusBadRequest, "portal_2fa.html", "Verificação em duas etapas",
			portalPage{Error: "Código incorreto. Confira o horário do seu celular e digite o código que o aplicativo mostra agora."})
		return
	}
	if err != nil {
		if errors.Is(err, service.ErrSessionEnded) {
			_ = s.portalSessions.end(c)
		}
		portalFail(c, err, nil)
		return
	}
	// This session goes on under the new epoch; the others have ended.
	s.portalSessions.sm.Remove(ctx, portalEnroll)
	s.portalSessions.sm.Put(ctx, portalEpoch, epoch)
	portalRender(c, http.StatusOK, "portal_2fa_done.html", "Verificação em duas etapas ativada", portalPage{RecoveryCodes: codes})
}
