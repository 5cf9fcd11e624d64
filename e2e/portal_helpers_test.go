package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
)

// holder is a portal holder's browser without a browser: a cookie jar that
// shows redirects instead of following them.
type holder struct {
	e      *env
	client *http.Client
}

func (e *env) holder() *holder {
	jar, _ := cookiejar.New(nil)
	return &holder{e: e, client: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends a page request (a form when form is not nil) and returns the
// answer and its body.
func (h *holder) do(method, path string, form url.Values, headers ...string) (*http.Response, string) {
	h.e.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, h.e.base+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := h.client.Do(req)
	if err != nil {
		h.e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// login posts the login form.
func (h *holder) login(email, password, code string) (*http.Response, string) {
	f := url.Values{"email": {email}, "password": {password}}
	if code != "" {
		f.Set("code", code)
	}
	return h.do("POST", "/portal/login", f)
}

// portalSub is a sub-account of a merchant with PIX on sub-accounts, whose
// portal is set up with a fresh e-mail; it answers the merchant, the
// sub-account's id and the e-mail.
func (e *env) portalSub(password string) (merchant, string, string) {
	e.t.Helper()
	m, sub := e.pixSubMerchant()
	email := fmt.Sprintf("holder%d@example.com", subSeq.Add(1))
	if r := e.move(m, "portal/setup", map[string]any{"id": sub, "email": email, "password": password}); r.Status != 200 {
		e.t.Fatalf("portal setup: %d %s", r.Status, r.Message)
	}
	return m, sub, email
}

// portalStatus is the sub-account's portal block of portal/status.
func (e *env) portalStatus(m merchant, sub string) map[string]any {
	e.t.Helper()
	v := map[string]any{}
	e.call(m.Key, "GET", "/v1/subaccount/portal/status?id="+sub, nil).into(e.t, &v)
	return v["portal"].(map[string]any)
}

var otpauthRe = regexp.MustCompile(`data-otpauth>([^<]+)<`)

// enrollSecret reads the TOTP secret the enrollment page shows.
func enrollSecret(t *testing.T, body string) string {
	t.Helper()
	m := otpauthRe.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no data-otpauth on the page:\n%s", body)
	}
	u, err := url.Parse(strings.ReplaceAll(m[1], "&amp;", "&"))
	if err != nil || u.Scheme != "otpauth" || u.Host != "totp" {
		t.Fatalf("data-otpauth %q is not an otpauth://totp URI", m[1])
	}
	return u.Query().Get("secret")
}

// codeAt is secret's TOTP code at t.
func codeAt(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCode(secret, at)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var recoveryRe = regexp.MustCompile(`data-recovery-code>([^<]+)<`)
