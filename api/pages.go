package api

import (
	"context"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/session_watch.go -package=apimock . SessionWatch

// SessionWatch wakes the hosted session page's event stream after each
// event of the resources it follows (dispatch.Watchers, fed by the tail).
type SessionWatch interface {
	Watch(ids ...string) (wake <-chan struct{}, stop func())
}

// The hosted pages of payment links: the link's pay page and the
// session's page, server-rendered with html/template (everything a merchant
// or a payer typed is escaped) from embedded files, no build step. They
// take no API key: a link's id and a session's unguessable id are their
// addresses.

//go:embed pages/*.html
var pageFiles embed.FS

//go:embed pages/assets
var pageAssets embed.FS

var pageTemplates = template.Must(template.New("pages").Funcs(template.FuncMap{
	"brl":        brl,
	"statusName": statusName,
	"localTime":  localTime,
	"typeName":   typeName,
	"txStatus":   txStatusName,
	"lockName":   lockName,
	// The dashboard's (api/dashboard_words.go).
	"roleName": roleName, "endpointStatus": endpointStatus, "deliveryStatus": deliveryStatus, "auditName": auditName,
	"portalState": portalState, "stepTitle": stepTitle, "localWhen": localWhen, "localSeconds": localSeconds,
	"join": join, "revokedNow": revokedNow, "firstBytes": firstBytes,
	"methodName": func(m string) string {
		if m == domain.MethodPix {
			return "PIX"
		}
		return "Criptomoeda"
	},
}).ParseFS(pageFiles, "pages/*.html"))

// pageCSP is the pages' Content-Security-Policy: their own scripts and
// styles only, the QR as a data: image, forms and event streams to
// themselves, never framed.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// DefaultPageCheckoutsPerMinute is the pay page's checkouts allowed per
// client address and minute when the configuration sets none: enough for
// a person, too few to mint charges in bulk.
const DefaultPageCheckoutsPerMinute = 10

// sseHeartbeat is how often an idle event stream sends a comment (proxies
// close silent connections).
const sseHeartbeat = 15 * time.Second

// sessionExpiryLook is how long after a session's expiry its event stream
// reads it again (and again, while it is still OPEN): longer than the
// grace its payment's workflow gives a notice in flight (5 s).
const sessionExpiryLook = 6 * time.Second

// brl formats centavos as Brazilian reais: R$ 1.234,56 (money.Cents.Format).
func brl(v any) string {
	switch x := v.(type) {
	case money.Cents:
		return x.Format()
	case *money.Cents:
		if x != nil {
			return x.Format()
		}
	}
	return ""
}

// statusName is a session status as the page says it.
func statusName(status string) string {
	switch status {
	case checkout.SessionPaid:
		return "pago"
	case checkout.SessionExpired:
		return "expirado"
	}
	return "aguardando pagamento"
}

// mountPageAssets serves the pages' own scripts and styles (the CSP
// allows no other).
func mountPageAssets(e *gin.Engine) {
	assets, _ := fs.Sub(pageAssets, "pages/assets")
	files := http.FileServer(http.FS(assets))
	e.GET("/pay/assets/*file", func(c *gin.Context) {
		c.Header("Cache-Control", "public, max-age=300")
		c.Header("X-Content-Type-Options", "nosniff")
		c.Request.URL.Path = c.Param("file")
		files.ServeHTTP(c.Writer, c.Request)
	})
}

// mountPages adds the payment links' hosted pages to the pages' group.
func (s *Server) mountPages(pages *gin.RouterGroup) {
	pages.GET("/pay/session/:sessionId", s.sessionPage)
	pages.GET("/pay/session/:sessionId/events", s.sessionEvents)
	pages.GET("/pay/:linkId", s.linkPage)
	pages.POST("/pay/:linkId", s.linkPageCheckout)
}

// pageHeaders is the one place the human pages' security headers are set:
// the middleware of every page route, so that an error, a refusal or a
// redirect carries them as a rendered page does. The pages' CSP (nothing
// but their own assets, never framed), nosniff, no Referer (a page's
// address is its only authority: a token, a session id) and no cache (a
// payer's data, a delivery).
func pageHeaders(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	c.Next()
}

// pageData is what the templates read.
type pageData struct {
	Title, Merchant string
	Error           string
	// The link page.
	Link     service.PaymentLink
	Products []service.PageProduct
	Price    *money.Cents // what the link sells at; nil: the payer types it
	Required bool
	Nonce    string
	Form     pageForm
	// The session page.
	Session                  checkout.CheckoutSession
	QR                       template.URL
	CopyPaste                string
	Crypto                   *service.CheckoutCrypto
	ExpiresISO, ExpiresLocal string
	Delivery                 []checkout.SessionDelivery
	// A debit card billing's invoice (api/billing_invoice.go).
	Invoice invoiceView
	// A boleto's slip (api/billing_pages.go), on a wider card.
	Slip billingPageData
	Wide bool
	// Area is the pages' area ("portal", "dashboard"; empty for the
	// payer's pages).
	Area string
	// The sub-account portal's pages (api/portal_pages.go).
	Portal portalPage
	// The merchant dashboard's pages (api/dashboard_pages.go).
	Dash dashPage
}

// pageForm is what the payer typed, shown again with an error.
type pageForm struct {
	Amount, Name, Document, Email, CouponCode string
}

// render is the one renderer of the human pages (html/template, the
// layout of pages/layout.html); their headers come from the page routes'
// middleware, pageHeaders.
func render(c *gin.Context, status int, name string, d pageData) {
	var b strings.Builder
	if err := pageTemplates.ExecuteTemplate(&b, name, d); err != nil {
		c.String(http.StatusInternalServerError, "erro interno")
		return
	}
	c.Data(status, "text/html; charset=utf-8", []byte(b.String()))
}

// pageError renders the page that stands for a link or session that
// cannot be shown.
func pageError(c *gin.Context, err error) {
	status, msg := statusOf(err), "Não foi possível abrir esta página. Tente novamente em instantes."
	if status == http.StatusNotFound {
		msg = "Este link de pagamento não existe ou foi removido."
	}
	render(c, status, "gone.html", pageData{Title: "Pagamento indisponível", Merchant: "Jangada", Error: msg})
}

func (s *Server) linkPage(c *gin.Context) {
	p, err := s.Checkouts.PublicLink(c.Request.Context(), c.Param("linkId"))
	if err != nil {
		pageError(c, err)
		return
	}
	s.renderLink(c, http.StatusOK, p, pageForm{}, "")
}

func (s *Server) renderLink(c *gin.Context, status int, p service.PayPage, form pageForm, msg string) {
	if p.Link.Status != checkout.LinkActive {
		render(c, http.StatusNotFound, "gone.html", pageData{Title: p.Link.Name, Merchant: p.MerchantName,
			Error: "Este link de pagamento não está aceitando pagamentos no momento."})
		return
	}
	render(c, status, "link.html", pageData{Title: p.Link.Name, Merchant: p.MerchantName, Link: p.Link, Products: p.Products, Price: p.Price,
		Required: p.Link.CustomerMode == checkout.CustomerRequired, Nonce: s.issueNonce(p.Link.ID), Form: form, Error: msg})
}

// linkPageCheckout is the pay page's form: a checkout of the link (rate
// limited per client address), then the session's page.
func (s *Server) linkPageCheckout(c *gin.Context) {
	perMinute := s.cfg.PageCheckoutsPerMinute
	if perMinute <= 0 {
		perMinute = DefaultPageCheckoutsPerMinute
	}
	allowed := s.limiter.Allow(c.Request.Context(), "pay-page:"+c.ClientIP(), perMinute).Allowed
	// One link's checkouts from one address are bounded tighter, a third
	// of the address's but at least 3 (3 a minute by default: a payer
	// needs one, a double click two): each holds a product's line or a
	// coupon's use for service.PageHoldTTL.
	if held := s.limiter.Allow(c.Request.Context(), "pay-hold:"+c.Param("linkId")+":"+c.ClientIP(), min(perMinute, max(perMinute/3, 3))).Allowed; allowed && !held {
		allowed = false
	}
	if !allowed {
		c.Header("Retry-After", "60")
		render(c, http.StatusTooManyRequests, "gone.html", pageData{Title: "Muitas tentativas", Merchant: "Jangada",
			Error: "Muitas tentativas de pagamento a partir deste endereço. Aguarde um minuto e tente de novo."})
		return
	}
	ctx := c.Request.Context()
	linkID := c.Param("linkId")
	form := pageForm{Amount: c.PostForm("amount"), Name: c.PostForm("name"), Document: c.PostForm("document"),
		Email: c.PostForm("email"), CouponCode: c.PostForm("couponCode")}
	in, err := pageRequest(linkID, c.PostForm("method"), form)
	var r service.CheckoutResult
	if err == nil {
		r, err = s.Checkouts.PageCheckout(ctx, s.pageKey(linkID, c.PostForm("nonce"), form), in)
	}
	if err != nil {
		p, lerr := s.Checkouts.PublicLink(ctx, linkID)
		if lerr != nil {
			pageError(c, lerr)
			return
		}
		status := statusOf(err)
		msg := "Não foi possível iniciar o pagamento. Tente novamente em instantes."
		var de *domain.Error
		if errors.As(err, &de) && status < 500 {
			msg = de.Message
		}
		s.renderLink(c, status, p, form, msg)
		return
	}
	c.Redirect(http.StatusSeeOther, "/pay/session/"+r.Session.ID)
}

// pageRequest makes the form a checkout request, validated as the API's.
func pageRequest(linkID, method string, f pageForm) (checkout.NewCheckout, error) {
	req := checkout.CheckoutRequest{LinkID: &linkID, Method: &method}
	if a := strings.TrimSpace(f.Amount); a != "" {
		v, err := money.ParseTyped(a)
		if err != nil {
			return checkout.NewCheckout{}, domain.Invalid("amount", "must be a value in reais, such as 10,50")
		}
		req.Amount = &v
	}
	if f.Name != "" || f.Document != "" || f.Email != "" {
		req.Payer = &checkout.CheckoutPayerRequest{Name: &f.Name, Document: &f.Document, Email: &f.Email}
	}
	if f.CouponCode != "" {
		req.CouponCode = &f.CouponCode
	}
	return req.Validate()
}

func (s *Server) sessionPage(c *gin.Context) {
	r, err := s.Checkouts.PublicSession(c.Request.Context(), c.Param("sessionId"))
	if err != nil {
		pageError(c, err)
		return
	}
	sess := r.Session
	d := pageData{Title: r.LinkName, Merchant: r.MerchantName, Session: sess, CopyPaste: r.CopyPaste, Crypto: r.Crypto,
		ExpiresISO: sess.ExpiresAt.UTC().Format(time.RFC3339), ExpiresLocal: sess.ExpiresAt.In(domain.SaoPaulo).Format("15:04")}
	if strings.HasPrefix(r.QRCodeBase64, "data:image/png;base64,") {
		d.QR = template.URL(r.QRCodeBase64) // our own PNG, not user input
	}
	if sess.Status == checkout.SessionPaid {
		d.Delivery = sess.Delivery.V
	}
	render(c, http.StatusOK, "session.html", d)
}

// sessionState is what the event stream sends: the session's status and,
// once paid, its delivery.
type sessionState struct {
	Status   string                     `json:"status"`
	Delivery []checkout.SessionDelivery `json:"delivery,omitempty"`
}

// sessionEvents streams the session's status as Server-Sent Events
// ("status" events) until it is paid or expired: it follows the session
// and its charge through the event tail (SessionWatch) and reads the
// session again after each of their events. A CRYPTO session's expiry
// writes no event (crypto writes none, the spec's rule), so the stream
// also looks again once the session's time is up (its payment's workflow
// allows a grace).
func (s *Server) sessionEvents(c *gin.Context) {
	id := c.Param("sessionId")
	r, err := s.Checkouts.PublicSession(c.Request.Context(), id)
	if err != nil {
		c.AbortWithStatus(statusOf(err))
		return
	}
	s.statusStream(c, []string{id, r.Session.TransactionID}, r.Session.ExpiresAt.Time, func(ctx context.Context) (streamState, error) {
		r, err := s.Checkouts.PublicSession(ctx, id)
		if err != nil {
			return streamState{}, err
		}
		st := sessionState{Status: r.Session.Status}
		if st.Status == checkout.SessionPaid {
			st.Delivery = r.Session.Delivery.V
		}
		return streamState{Status: st.Status, Open: st.Status == checkout.SessionOpen, Data: st}, nil
	})
}
