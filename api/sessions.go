package api

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/gin-gonic/gin"
)

// The human pages' sessions (the portal's; the dashboard's next): scs
// sessions stored in PostgreSQL (the sessions table, postgresstore), one
// cookie per area. The id is a random token that rotates at login
// (renew), so a token planted before a login never becomes a session.
const (
	// SessionIdle ends a session nobody used for this long.
	SessionIdle = 30 * time.Minute
	// SessionLifetime ends every session this long after its login.
	SessionLifetime = 12 * time.Hour
)

// webSessions is one area's sessions.
type webSessions struct {
	sm *scs.SessionManager
}

// newWebSessions keeps an area's sessions in store under the cookie name:
// HttpOnly, SameSite=Lax, and Secure with the __Host- prefix (no Domain,
// path /) whenever the public address is https.
func newWebSessions(store scs.Store, name, publicURL string) *webSessions {
	sm := scs.New()
	sm.Store = store
	sm.IdleTimeout, sm.Lifetime = SessionIdle, SessionLifetime
	sm.Cookie.Name, sm.Cookie.Path = name, "/"
	sm.Cookie.HttpOnly, sm.Cookie.SameSite = true, http.SameSiteLaxMode
	if strings.HasPrefix(strings.ToLower(publicURL), "https://") {
		sm.Cookie.Name, sm.Cookie.Secure = "__Host-"+name, true
	}
	sm.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) {
		slog.Error("page session", "error", err)
		http.Error(w, "sessão indisponível", http.StatusServiceUnavailable)
	}
	return &webSessions{sm: sm}
}

// load is the area's middleware: it loads the request's session into its
// context and saves it (moving its idle deadline, writing its cookie)
// before the first byte of the answer, or after the handlers when they
// wrote none.
func (w *webSessions) load(c *gin.Context) {
	token := ""
	if ck, err := c.Request.Cookie(w.sm.Cookie.Name); err == nil {
		token = ck.Value
	}
	ctx, err := w.sm.Load(c.Request.Context(), token)
	if err != nil {
		slog.Error("page session load", "error", err)
		render(c, http.StatusServiceUnavailable, "gone.html", pageData{Title: "Indisponível", Merchant: "Jangada",
			Error: "Não foi possível abrir a sua sessão agora. Tente novamente em instantes."})
		c.Abort()
		return
	}
	c.Request = c.Request.WithContext(ctx)
	c.Header("Vary", "Cookie")
	sw := &sessionWriter{ResponseWriter: c.Writer, save: func() { w.save(c) }}
	c.Writer = sw
	c.Next()
	sw.commit()
}

// save commits the session now and writes its cookie; it is done once per
// request (the writer calls it before the answer's first byte).
func (w *webSessions) save(c *gin.Context) {
	ctx := c.Request.Context()
	switch w.sm.Status(ctx) {
	case scs.Modified:
		token, expiry, err := w.sm.Commit(ctx)
		if err != nil {
			slog.Error("page session commit", "error", err)
			return
		}
		w.sm.WriteSessionCookie(ctx, c.Writer, token, expiry)
	case scs.Destroyed:
		w.sm.WriteSessionCookie(ctx, c.Writer, "", time.Time{})
	}
}

// start begins a logged-in session with values alone (nothing a visitor
// put before survives), under a new token and a new 12-hour deadline.
func (w *webSessions) start(c *gin.Context, values map[string]any) error {
	ctx := c.Request.Context()
	if err := w.sm.Clear(ctx); err != nil {
		return err
	}
	if err := w.sm.RenewToken(ctx); err != nil {
		return err
	}
	for k, v := range values {
		w.sm.Put(ctx, k, v)
	}
	return nil
}

// end destroys the session (its row and its cookie).
func (w *webSessions) end(c *gin.Context) error { return w.sm.Destroy(c.Request.Context()) }

// sessionWriter saves the session before the answer's first byte goes.
type sessionWriter struct {
	gin.ResponseWriter
	save  func()
	saved bool
}

func (w *sessionWriter) commit() {
	if !w.saved {
		w.saved = true
		w.save()
	}
}

// WriteHeader saves the session, then sets the status.
func (w *sessionWriter) WriteHeader(code int) { w.commit(); w.ResponseWriter.WriteHeader(code) }

// WriteHeaderNow saves the session, then sends the header.
func (w *sessionWriter) WriteHeaderNow() { w.commit(); w.ResponseWriter.WriteHeaderNow() }

// Write saves the session, then writes.
func (w *sessionWriter) Write(b []byte) (int, error) { w.commit(); return w.ResponseWriter.Write(b) }

// WriteString saves the session, then writes.
func (w *sessionWriter) WriteString(s string) (int, error) {
	w.commit()
	return w.ResponseWriter.WriteString(s)
}

// Flush saves the session, then flushes.
func (w *sessionWriter) Flush() { w.commit(); w.ResponseWriter.Flush() }
