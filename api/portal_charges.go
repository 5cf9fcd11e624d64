package api

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"html/template"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/qr"
)

// chargeFields are the charge form's refusals in the holder's words.
var chargeFields = map[string]string{
	"amount":      "Informe um valor em reais de R$ 1,00 a R$ 1.000.000,00, como 10,50.",
	"description": "Descreva a cobrança com 3 a 180 caracteres.",
}

// portalCreateCharge makes a PIX charge into the holder's sub-account
// from the form (amount in reais with a comma or a dot, description) and
// answers 303 to its page. The form's nonce names the charge: a double
// submit of one form lands on the same charge.
func (s *Server) portalCreateCharge(c *gin.Context) {
	h := holderOf(c)
	amount, err := money.ParseTyped(c.PostForm("amount"))
	if err != nil {
		portalFail(c, domain.Invalid("amount", "must be a value in reais"), chargeFields)
		return
	}
	desc := c.PostForm("description")
	in, err := domain.ChargeRequest{Amount: &amount, Description: &desc}.Validate()
	if err != nil {
		portalFail(c, err, chargeFields)
		return
	}
	in.IdempotencyKey = s.portalChargeKey(h.Subaccount.ID, c.PostForm("nonce"))
	r, err := s.Portal.CreateCharge(c.Request.Context(), h, in)
	if err != nil {
		portalFail(c, err, chargeFields)
		return
	}
	c.Redirect(http.StatusSeeOther, "/portal/charges/"+r.Charge.ID)
}

// portalChargeKey is the charge's idempotency key: the form's nonce (32
// hex digits, from the home page) bound to the sub-account under the
// server's secret; a form without one makes a fresh charge.
func (s *Server) portalChargeKey(subID, nonce string) string {
	if len(nonce) != 32 || strings.Trim(nonce, "0123456789abcdef") != "" {
		nonce = newNonce()
	}
	m := hmac.New(sha256.New, s.fingerprint)
	m.Write([]byte("portal-charge\x00" + subID + "\x00" + nonce))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// portalCharge is a charge's page: its QR, its copy-paste code and its
// status, kept live by portalChargeEvents.
func (s *Server) portalCharge(c *gin.Context) {
	t, err := s.Portal.Record(c.Request.Context(), holderOf(c), c.Param("id"), domain.TypePixIn)
	if err != nil {
		portalFail(c, err, nil)
		return
	}
	p := portalPage{Charge: t}
	if t.CopyPaste != nil {
		img, err := qr.DataURI(*t.CopyPaste)
		if err != nil {
			portalFail(c, err, nil)
			return
		}
		p.QR = template.URL(img) // #nosec G203 -- a data: URI this server drew
	}
	if t.ExpiresAt != nil {
		p.ExpiresISO = t.ExpiresAt.ISO()
	}
	portalRender(c, http.StatusOK, "portal_charge.html", "Cobrança PIX", p)
}

// chargeState is what a charge's event stream sends.
type chargeState struct {
	Status string `json:"status"`
}

// portalChargeEvents streams the charge's status (Server-Sent Events) until
// it is no longer pending: it turns paid live, as the pay page does.
func (s *Server) portalChargeEvents(c *gin.Context) {
	h, id := holderOf(c), c.Param("id")
	t, err := s.Portal.Record(c.Request.Context(), h, id, domain.TypePixIn)
	if err != nil {
		c.AbortWithStatus(statusOf(err))
		return
	}
	var expires domain.Time
	if t.ExpiresAt != nil {
		expires = *t.ExpiresAt
	}
	s.statusStream(c, []string{id}, expires.Time, func(ctx context.Context) (streamState, error) {
		t, err := s.Portal.Record(ctx, h, id, domain.TypePixIn)
		if err != nil {
			return streamState{}, err
		}
		return streamState{Status: t.Status, Open: t.Status == domain.StatusPending, Data: chargeState{Status: t.Status}}, nil
	})
}
