package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

// checkoutView is a checkout's answer: the session, and for PIX its
// charge's copy-paste code and QR image.
type checkoutView struct {
	domain.SessionView
	CopyPaste    string `json:"copyPaste,omitempty"`
	QRCodeBase64 string `json:"qrCodeBase64,omitempty"`
}

func (s *Server) viewCheckout(r service.CheckoutResult) checkoutView {
	return checkoutView{SessionView: r.Session.View(s.cfg.PublicURL), CopyPaste: r.CopyPaste, QRCodeBase64: r.QRCodeBase64}
}

// checkout runs under the Idempotency-Key middleware (routes.go marks the
// row): the same key and body answer the first session again.
func (s *Server) checkout(c *gin.Context) {
	bindAndAct[domain.NewCheckout, domain.CheckoutRequest](c, "Checkout session created", func(in domain.NewCheckout) (any, error) {
		in.IdempotencyKey = idempotencyKey(c)
		r, err := s.Checkouts.Checkout(c.Request.Context(), accountOf(c), keyOf(c), in)
		return s.viewCheckout(r), err
	})
}

func (s *Server) getSession(c *gin.Context) {
	sess, err := s.Checkouts.Session(c.Request.Context(), accountOf(c), c.Param("sessionId"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Checkout session", sess.View(s.cfg.PublicURL))
}
