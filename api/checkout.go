package api

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	checkoutdom "github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/checkouts.go -package=apimock . Checkouts

// Checkouts runs payment links' checkouts and reads their sessions, for
// the merchant API and the hosted pages.
type Checkouts interface {
	Checkout(ctx context.Context, acct domain.Account, key domain.APIKey, in checkout.NewCheckout) (service.CheckoutResult, error)
	Session(ctx context.Context, acct domain.Account, id string) (checkout.CheckoutSession, error)
	PageCheckout(ctx context.Context, nonce string, in checkout.NewCheckout) (service.CheckoutResult, error)
	PublicSession(ctx context.Context, id string) (service.CheckoutResult, error)
	PublicLink(ctx context.Context, id string) (service.PayPage, error)
}

// checkoutView is a checkout's answer: the session, and for PIX its
// charge's copy-paste code and QR image, for CRYPTO its deposit's address
// (extraId: the destination tag of a memo currency) and the amount to send
// in payCurrency at rate (BRL per coin), until the session's expiresAt.
type checkoutView struct {
	checkoutdom.SessionView
	CopyPaste    string               `json:"copyPaste,omitempty"`
	QRCodeBase64 string               `json:"qrCodeBase64,omitempty"`
	Address      string               `json:"address,omitempty"`
	ExtraID      string               `json:"extraId,omitempty"`
	PayCurrency  string               `json:"payCurrency,omitempty"`
	PayAmount    *domain.CryptoAmount `json:"payAmount,omitempty"`
	Rate         *money.Cents         `json:"rate,omitempty"`
}

func (s *Server) viewCheckout(r service.CheckoutResult) checkoutView {
	v := checkoutView{SessionView: r.Session.View(s.cfg.PublicURL), CopyPaste: r.CopyPaste, QRCodeBase64: r.QRCodeBase64}
	if c := r.Crypto; c != nil {
		v.Address, v.ExtraID, v.PayCurrency, v.PayAmount, v.Rate = c.Address, c.ExtraID, c.PayCurrency, &c.PayAmount, &c.Rate
	}
	return v
}

// checkout runs under the Idempotency-Key middleware (routes.go marks the
// row): the same key and body answer the first session again.
func (s *Server) checkout(c *gin.Context) {
	bindAndAct[checkoutdom.NewCheckout, checkoutdom.CheckoutRequest](c, "Checkout session created", func(in checkoutdom.NewCheckout) (any, error) {
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
