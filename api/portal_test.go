package api

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/service"
)

// portalPageCalls are the portal's routes for the page headers' test: the
// holder's pages without a session (a redirect to the login), the login
// page and its refusal, the logout.
func portalPageCalls() map[string][]pageCall {
	none := func(*fixture) {}
	login := url.Values{"email": {"a@b.c"}, "password": {"x"}}.Encode()
	out := map[string][]pageCall{
		"GET /portal/login": {{"GET", "/portal/login", "", none}},
		"POST /portal/login": {{"POST", "/portal/login", login, func(f *fixture) {
			f.portal.EXPECT().Login(gomock.Any(), gomock.Any()).Return(service.PortalHolder{}, service.ErrLoginFailed)
		}}},
		"POST /portal/logout": {{"POST", "/portal/logout", "", none}},
	}
	for _, r := range []string{"GET /portal/", "GET /portal/statement", "GET /portal/statement.csv", "GET /portal/statement/:id",
		"GET /portal/security/2fa", "GET /portal/charges/:id", "GET /portal/charges/:id/events", "POST /portal/charges",
		"POST /portal/security/2fa"} {
		method, path, _ := strings.Cut(r, " ")
		out[r] = []pageCall{{method, strings.ReplaceAll(path, ":id", "tx_1"), "", none}}
	}
	return out
}

// portalHolder is a holder of sub_1 under epoch 3.
var portalHolder = service.PortalHolder{Epoch: 3, Account: domain.Account{ID: "acc_1", Name: "Loja"},
	Subaccount: subaccount.Subaccount{ID: "sub_1", Name: "Maria", Status: subaccount.StatusActive, LockMode: subaccount.LockNone}}

// loginAs logs a holder in through the form and answers the session cookie.
func (f *fixture) loginAs(h service.PortalHolder) *http.Cookie {
	f.t.Helper()
	f.portal.EXPECT().Login(gomock.Any(), gomock.Any()).Return(h, nil)
	w := f.postForm("/portal/login", url.Values{"email": {"m@x.com"}, "password": {"P4ss!word"}}, testPeer+":1000")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/portal/" {
		f.t.Fatalf("login: %d %q", w.Code, w.Header().Get("Location"))
	}
	for _, c := range w.Result().Cookies() {
		if strings.HasSuffix(c.Name, portalCookie) {
			return c
		}
	}
	f.t.Fatal("login set no session cookie")
	return nil
}

// withCookie serves a page request carrying the session cookie.
func (f *fixture) withCookie(method, path string, c *http.Cookie, form url.Values) *httptest.ResponseRecorder {
	f.t.Helper()
	var r *http.Request
	if form != nil {
		r = httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		r = httptest.NewRequest(method, path, nil)
	}
	r.RemoteAddr = testPeer + ":1000"
	r.AddCookie(c)
	w := httptest.NewRecorder()
	f.srv.Handler().ServeHTTP(w, r)
	return w
}

// The login form's outcomes, one answer each: the session on success, one
// generic 401 for every refusal, the code asked for, 429 with Retry-After.
func TestPortalLoginOutcomes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		err        error
		status     int
		want       string
		retryAfter string
	}{
		{"refused", service.ErrLoginFailed, 401, loginFailed, ""},
		{"code asked", service.ErrCodeNeeded, 401, `name="code"`, ""},
		{"throttled", &service.ThrottledError{RetryAfter: 90*time.Second + time.Millisecond}, 429, "Muitas tentativas", "91"},
		{"store down", domain.ErrUnavailable, 503, "Tente novamente", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.portal.EXPECT().Login(gomock.Any(), gomock.Any()).DoAndReturn(func(_ any, in service.PortalLogin) (service.PortalHolder, error) {
				if in.Email != "m@x.com" || in.Code != "123456" || in.Address != testPeer || in.UserAgent != "" {
					t.Errorf("login got %+v", in)
				}
				return service.PortalHolder{}, c.err
			})
			w := f.postForm("/portal/login", url.Values{"email": {"m@x.com"}, "password": {"x"}, "code": {"123456"}}, testPeer+":1000")
			if w.Code != c.status || !strings.Contains(w.Body.String(), c.want) || w.Header().Get("Retry-After") != c.retryAfter {
				t.Fatalf("%d Retry-After %q\n%s", w.Code, w.Header().Get("Retry-After"), w.Body.String())
			}
			if len(w.Result().Cookies()) != 0 {
				t.Fatalf("a refused login set a cookie: %v", w.Result().Cookies())
			}
		})
	}
}

// The session cookie: HttpOnly and SameSite=Lax; over https Secure with the
// __Host- prefix (no Domain, path /); a new token at each login, so a
// token planted before it never becomes a session.
func TestPortalSessionCookie(t *testing.T) {
	t.Parallel()
	f := newFixture(t, withConfig(func(c *config.Config) { c.PublicURL = "http://localhost:8080" }))
	c := f.loginAs(portalHolder)
	if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure || c.Name != portalCookie || c.Path != "/" ||
		c.MaxAge != int(SessionIdle/time.Second) {
		t.Fatalf("http cookie: %+v", c)
	}
	again := f.loginAs(portalHolder)
	if again.Value == c.Value {
		t.Fatal("the session token did not rotate at login")
	}
	planted := &http.Cookie{Name: portalCookie, Value: "planted-by-someone-else"}
	f.portal.EXPECT().Login(gomock.Any(), gomock.Any()).Return(portalHolder, nil)
	w := f.withCookie("POST", "/portal/login", planted, url.Values{"email": {"m@x.com"}, "password": {"x"}})
	if got := w.Result().Cookies(); len(got) != 1 || got[0].Value == planted.Value {
		t.Fatalf("login over a planted token: %v", got)
	}

	secure := newFixture(t, withConfig(func(c *config.Config) { c.PublicURL = "https://pay.example.com" }))
	sc := secure.loginAs(portalHolder)
	if sc.Name != "__Host-"+portalCookie || !sc.Secure || !sc.HttpOnly || sc.Domain != "" || sc.Path != "/" {
		t.Fatalf("https cookie: %+v", sc)
	}
}

// A session whose holder's session ended (a revoke, a reset, a disable) is
// destroyed and sent to the login page; a live one reaches the page with
// the epoch it was opened under.
func TestPortalSessionEnds(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := f.loginAs(portalHolder)
	f.portal.EXPECT().Holder(gomock.Any(), "sub_1", int64(3)).Return(portalHolder, nil)
	f.portal.EXPECT().Balance(gomock.Any(), gomock.Any()).Return(subaccount.Balance{AvailablePadrao: 123456}, nil)
	f.portal.EXPECT().Statement(gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, 0, nil)
	w := f.withCookie("GET", "/portal/", c, nil)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `data-balance="availablePadrao">R$ 1.234,56<`) {
		t.Fatalf("home: %d\n%s", w.Code, w.Body.String())
	}
	f.portal.EXPECT().Holder(gomock.Any(), "sub_1", int64(3)).Return(service.PortalHolder{}, service.ErrSessionEnded)
	w = f.withCookie("GET", "/portal/", c, nil)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/portal/login" {
		t.Fatalf("ended session: %d %q", w.Code, w.Header().Get("Location"))
	}
	// Its token is gone: the next request has no session at all.
	w = f.withCookie("GET", "/portal/", c, nil)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("the ended session's token still opens: %d", w.Code)
	}
}

// The CSV keeps a description a payer typed a text: one that starts like a
// spreadsheet formula is prefixed with an apostrophe; amounts stay numbers.
func TestPortalStatementCSV(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := f.loginAs(portalHolder)
	f.portal.EXPECT().Holder(gomock.Any(), "sub_1", int64(3)).Return(portalHolder, nil)
	recs := []domain.Transaction{
		{ID: "tx_2", Type: domain.TypePixIn, Status: domain.StatusCompleted, Amount: 1050, FeeAmount: 50, NetAmount: 1000,
			Description: `=HYPERLINK("http://evil")`, CreatedAt: domain.NewTime(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))},
		{ID: "tx_1", Type: domain.TypeRefund, Status: domain.StatusCompleted, Amount: -500, Description: "Devolução, parcial",
			CreatedAt: domain.NewTime(time.Date(2026, 11, 28, 9, 30, 0, 0, time.UTC))},
	}
	f.portal.EXPECT().Statement(gomock.Any(), gomock.Any(), gomock.Any()).Return(recs, 2, nil)
	w := f.withCookie("GET", "/portal/statement.csv", c, nil)
	want := "id,createdAt,type,status,amount,feeAmount,netAmount,description\n" +
		"tx_2,2026-11-29T12:00:00.000Z,PIX_IN,COMPLETED,10.50,0.50,10.00,\"'=HYPERLINK(\"\"http://evil\"\")\"\n" +
		"tx_1,2026-11-28T09:30:00.000Z,PIX_REFUND,COMPLETED,-5.00,0.00,0.00,\"Devolução, parcial\"\n"
	if w.Code != 200 || w.Header().Get("Content-Type") != "text/csv; charset=utf-8" || w.Body.String() != want {
		t.Fatalf("%d %q\n%s", w.Code, w.Header().Get("Content-Type"), w.Body.String())
	}
}
