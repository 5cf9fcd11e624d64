package api

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"mime"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// The pages' guards: what one client can take of the pages, which need no
// key (budgets, bodies, streams), and the pay form's nonce.

// maxPageForm bounds a page form's body: a checkout or a card is a few
// hundred bytes.
const maxPageForm = 64 << 10

// Defaults of the pages' budgets (config: 0 takes these).
const (
	DefaultPageViewsPerMinute    = 300
	DefaultPageStreamsPerAddress = 20
)

// pageGuard bounds what one client can take of the pages, which need no
// key. A read spends the address's page budget (PageViewsPerMinute: a pay
// link's page runs a score of queries). A form a page posts is refused
// with 403 when it comes from another origin (a form another site makes
// a payer's browser send: a client that sends neither Origin nor
// Sec-Fetch-Site is not one), and is an URL-encoded form of at most
// maxPageForm bytes (no multipart, so nothing is ever spooled to disk),
// read here once.
func (s *Server) pageGuard(cop *http.CrossOriginProtection) gin.HandlerFunc {
	perMinute := s.cfg.PageViewsPerMinute
	if perMinute <= 0 {
		perMinute = DefaultPageViewsPerMinute
	}
	return func(c *gin.Context) {
		if c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead {
			if !s.limiter.Allow(c.Request.Context(), "page-view:"+c.ClientIP(), perMinute).Allowed {
				c.Header("Retry-After", "60")
				render(c, http.StatusTooManyRequests, "gone.html", pageData{Title: "Muitas tentativas", Merchant: "Jangada",
					Error: "Muitas páginas abertas a partir deste endereço. Aguarde um minuto e tente de novo."})
				c.Abort()
				return
			}
			c.Next()
			return
		}
		if err := cop.Check(c.Request); err != nil {
			render(c, http.StatusForbidden, "gone.html", pageData{Title: "Envio recusado", Merchant: "Jangada",
				Error: "Este formulário só pode ser enviado a partir da própria página."})
			c.Abort()
			return
		}
		if ct, _, _ := mime.ParseMediaType(c.ContentType()); ct != "application/x-www-form-urlencoded" && c.Request.ContentLength != 0 {
			render(c, http.StatusUnsupportedMediaType, "gone.html", pageData{Title: "Envio recusado", Merchant: "Jangada",
				Error: "Formulário em formato não aceito."})
			c.Abort()
			return
		}
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxPageForm)
		if err := c.Request.ParseForm(); err != nil {
			status, msg := http.StatusBadRequest, "Formulário ilegível."
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				status, msg = http.StatusRequestEntityTooLarge, "Formulário grande demais."
			}
			render(c, status, "gone.html", pageData{Title: "Envio recusado", Merchant: "Jangada", Error: msg})
			c.Abort()
			return
		}
		c.Next()
	}
}

// pageKey is the key a page checkout's session derives from: the form's
// nonce, when the server issued it for this link (issueNonce: a nonce
// the client picked is a fresh one), bound to the payer the form names, so
// that a nonce another person reuses makes another session and never
// lands them on the first one's (a double click of one payer's form still
// finds its session). Keyed with the server's secret, the key names no
// payer's data.
func (s *Server) pageKey(linkID, sent string, f pageForm) string {
	nonce, ok := s.checkNonce(linkID, sent)
	if !ok {
		nonce = newNonce()
	}
	m := hmac.New(sha256.New, s.fingerprint)
	for _, part := range []string{"page-checkout", linkID, nonce, strings.TrimSpace(f.Name), strings.TrimSpace(f.Document),
		strings.ToLower(strings.TrimSpace(f.Email))} {
		m.Write([]byte(part))
		m.Write([]byte{0})
	}
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// issueNonce is a pay form's nonce for link: 16 random bytes and their
// MAC under the server's secret, so only a nonce this server issued for
// this link is taken back (checkNonce).
func (s *Server) issueNonce(linkID string) string {
	r := newNonce()
	return r + s.nonceMAC(linkID, r)
}

// checkNonce returns the random part of a nonce issued by issueNonce for
// linkID, and whether sent is one.
func (s *Server) checkNonce(linkID, sent string) (string, bool) {
	if len(sent) != 64 {
		return "", false
	}
	r, mac := sent[:32], sent[32:]
	if strings.Trim(r, "0123456789abcdef") != "" || !hmac.Equal([]byte(mac), []byte(s.nonceMAC(linkID, r))) {
		return "", false
	}
	return r, true
}

func (s *Server) nonceMAC(linkID, r string) string {
	m := hmac.New(sha256.New, s.fingerprint)
	m.Write([]byte("pay-nonce\x00" + linkID + "\x00" + r))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

func newNonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
