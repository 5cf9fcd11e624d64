package e2e

import (
	"encoding/csv"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/money"
)

const holderPassword = "Hold3r!pass"

// TestPortalLoginAndPages: a holder logs in (a generic 401 for a wrong
// password and an unknown e-mail alike, the session cookie HttpOnly and
// SameSite=Lax, its id new), portal/status shows lastLoginAt, the home
// page shows the balance the API shows, the CSV has the contract's header
// and the sub-account's records, a charge from the portal is an ordinary
// charge with the sub-account's id, a cross-origin form is refused, and a
// revoke ends the open session at its next request.
func TestPortalLoginAndPages(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, sub, email := e.portalSub(holderPassword)
	h := e.holder()

	if res, _ := h.do("GET", "/portal/", nil); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/portal/login" {
		t.Fatalf("portal without a session: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	res, wrong := h.login(email, "Wr0ng!pass", "")
	_, unknown := h.login("nobody-"+email, holderPassword, "")
	if res.StatusCode != 401 || !strings.Contains(wrong, "E-mail, senha ou código incorretos") ||
		strings.ReplaceAll(unknown, "nobody-"+email, email) != wrong {
		t.Fatalf("a wrong password and an unknown e-mail must answer the same 401: %d\n%s", res.StatusCode, wrong)
	}
	for _, hdr := range []string{"Content-Security-Policy", "X-Content-Type-Options"} {
		if res.Header.Get(hdr) == "" {
			t.Errorf("login page lacks %s", hdr)
		}
	}
	if !strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Errorf("login page CSP %q", res.Header.Get("Content-Security-Policy"))
	}
	if before := e.portalStatus(m, sub)["lastLoginAt"]; before != nil {
		t.Fatalf("lastLoginAt before any login: %v", before)
	}
	res, _ = h.login(strings.ToUpper(email), holderPassword, "")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/portal/" {
		t.Fatalf("login: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	cookie := res.Header.Get("Set-Cookie")
	if !strings.HasPrefix(cookie, "jangada_portal=") || !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") {
		t.Fatalf("session cookie %q", cookie)
	}
	if e.portalStatus(m, sub)["lastLoginAt"] == nil {
		t.Fatal("lastLoginAt not set by a login")
	}

	// The home page: the name and the four balances, as the API has them.
	res, home := h.do("GET", "/portal/", nil)
	if res.StatusCode != 200 || !strings.Contains(home, "Maria Silva") || !strings.Contains(home, "Nenhum dinheiro sai pelo portal") {
		t.Fatalf("home: %d\n%s", res.StatusCode, home)
	}
	e.checkPortalBalance(t, m, sub, home)

	// A charge from the portal.
	res, _ = h.do("POST", "/portal/charges", url.Values{"amount": {"12,50"}, "description": {"Venda no portal"}, "nonce": {strings.Repeat("ab", 16)}})
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/portal/charges/") {
		t.Fatalf("portal charge: %d %q", res.StatusCode, loc)
	}
	// The same form again (a double submit) lands on the same charge.
	if again, _ := h.do("POST", "/portal/charges", url.Values{"amount": {"12,50"}, "description": {"Venda no portal"},
		"nonce": {strings.Repeat("ab", 16)}}); again.Header.Get("Location") != loc {
		t.Fatalf("resent charge form went to %q, want %q", again.Header.Get("Location"), loc)
	}
	chargeID := strings.TrimPrefix(loc, "/portal/charges/")
	c := e.call(m.Key, "GET", "/v1/payment-pix/get/"+chargeID, nil).m(t)
	if c["subaccountId"] != sub || c["amount"] != 12.5 || c["status"] != "PENDING" {
		t.Fatalf("the portal's charge as the API shows it: %v", c)
	}
	res, page := h.do("GET", loc, nil)
	if res.StatusCode != 200 || !strings.Contains(page, c["copyPaste"].(string)) || !strings.Contains(page, "R$ 12,50") {
		t.Fatalf("charge page: %d\n%s", res.StatusCode, page)
	}
	// Bad amounts are 400 in the holder's words.
	if res, body := h.do("POST", "/portal/charges", url.Values{"amount": {"0,50"}, "description": {"Venda"}}); res.StatusCode != 400 ||
		!strings.Contains(body, "Informe um valor") {
		t.Fatalf("bad amount: %d\n%s", res.StatusCode, body)
	}
	// Another site's form is refused.
	if res, _ := h.do("POST", "/portal/charges", url.Values{"amount": {"5"}, "description": {"Venda"}},
		"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"); res.StatusCode != 403 {
		t.Fatalf("cross-origin form: %d", res.StatusCode)
	}

	// The CSV: the contract's header and the sub-account's charge.
	res, body := h.do("GET", "/portal/statement.csv", nil)
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil || res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %q %v\n%s", res.StatusCode, res.Header.Get("Content-Type"), err, body)
	}
	if strings.Join(rows[0], ",") != "id,createdAt,type,status,amount,feeAmount,netAmount,description" || len(rows) != 2 ||
		rows[1][0] != chargeID || rows[1][4] != "12.50" || rows[1][7] != "Venda no portal" {
		t.Fatalf("csv rows: %q", rows)
	}
	// The holder's own record opens; another sub-account's is not found.
	if res, body := h.do("GET", "/portal/statement/"+chargeID, nil); res.StatusCode != 200 || !strings.Contains(body, "R$ 12,50") {
		t.Fatalf("the holder's own record: %d", res.StatusCode)
	}
	if res, _ := h.do("GET", "/portal/statement/"+e.createCharge(m, map[string]any{"amount": 3, "description": "Main"})["id"].(string), nil); res.StatusCode != 404 {
		t.Fatalf("the main account's record from the portal: %d", res.StatusCode)
	}

	// A revoke ends the open session at its next request.
	if r := e.move(m, "portal/revoke", map[string]any{"id": sub}); r.Status != 200 {
		t.Fatalf("revoke: %d %s", r.Status, r.Message)
	}
	if res, _ := h.do("GET", "/portal/", nil); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/portal/login" {
		t.Fatalf("portal after revoke: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := h.login(email, holderPassword, ""); res.StatusCode != 401 {
		t.Fatalf("login after revoke: %d", res.StatusCode)
	}
}

// checkPortalBalance compares the home page's four balances with the API's.
func (e *env) checkPortalBalance(t *testing.T, m merchant, sub, home string) {
	t.Helper()
	b := map[string]any{}
	e.call(m.Key, "GET", "/v1/subaccount/balance?id="+sub, nil).into(t, &b)
	for _, f := range []string{"spendablePadrao", "availablePadrao", "lockedPadrao", "pendingPadrao"} {
		want := `data-balance="` + f + `">` + money.Cents(math.Round(b[f].(float64)*100)).Format() + "<"
		if !strings.Contains(home, want) {
			t.Errorf("home lacks %s (API %v)", want, b[f])
		}
	}
}

// TestPortalTwoFactor: enrollment shows an otpauth URI; a wrong code is a
// 400; the right one answers ten recovery codes once and turns
// twoFactorEnabled on; a login then needs a code (401 with a code input),
// takes a TOTP code once (its replay is refused) and a recovery code once;
// reset-2fa ends the session.
func TestPortalTwoFactor(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, sub, email := e.portalSub(holderPassword)
	h := e.holder()
	if res, _ := h.login(email, holderPassword, ""); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: %d", res.StatusCode)
	}
	res, page := h.do("GET", "/portal/security/2fa", nil)
	if res.StatusCode != 200 {
		t.Fatalf("2fa page: %d", res.StatusCode)
	}
	secret := enrollSecret(t, page)
	now := time.Now()
	if res, _ := h.do("POST", "/portal/security/2fa", url.Values{"code": {codeAt(t, secret, now.Add(-10*time.Minute))}}); res.StatusCode != 400 {
		t.Fatalf("a stale code enrolled: %d", res.StatusCode)
	}
	res, done := h.do("POST", "/portal/security/2fa", url.Values{"code": {codeAt(t, secret, now)}})
	codes := recoveryRe.FindAllStringSubmatch(done, -1)
	if res.StatusCode != 200 || len(codes) != 10 {
		t.Fatalf("enroll: %d, %d recovery codes\n%s", res.StatusCode, len(codes), done)
	}
	if e.portalStatus(m, sub)["twoFactorEnabled"] != true {
		t.Fatal("twoFactorEnabled is not true after enrollment")
	}
	// The enrolling session goes on.
	if res, _ := h.do("GET", "/portal/", nil); res.StatusCode != 200 {
		t.Fatalf("the enrolling session ended: %d", res.StatusCode)
	}

	other := e.holder()
	res, asked := other.login(email, holderPassword, "")
	if res.StatusCode != 401 || !strings.Contains(asked, `name="code"`) {
		t.Fatalf("login without a code: %d\n%s", res.StatusCode, asked)
	}
	// The next step's code (the enrollment took this one's).
	code := codeAt(t, secret, now.Add(30*time.Second))
	if res, _ := other.login(email, holderPassword, code); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("login with a code: %d", res.StatusCode)
	}
	if res, _ := e.holder().login(email, holderPassword, code); res.StatusCode != 401 {
		t.Fatalf("a replayed code logged in: %d", res.StatusCode)
	}
	recovery := codes[0][1]
	if res, _ := e.holder().login(email, holderPassword, recovery); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("login with a recovery code: %d", res.StatusCode)
	}
	if res, _ := e.holder().login(email, holderPassword, recovery); res.StatusCode != 401 {
		t.Fatalf("a used recovery code logged in again: %d", res.StatusCode)
	}

	// reset-2fa ends every session, and the next login needs no code.
	if r := e.move(m, "portal/reset-2fa", map[string]any{"id": sub}); r.Status != 200 {
		t.Fatalf("reset-2fa: %d %s", r.Status, r.Message)
	}
	if res, _ := other.do("GET", "/portal/", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("a session after reset-2fa: %d", res.StatusCode)
	}
	if res, _ := e.holder().login(email, holderPassword, ""); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("login after reset-2fa: %d", res.StatusCode)
	}
}

// TestPortalLoginThrottle: ten failures for one e-mail within the window,
// then 429 with Retry-After, even with the right password; another
// e-mail from the same address is not held back.
func TestPortalLoginThrottle(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	_, _, email := e.portalSub(holderPassword)
	_, _, bystander := e.portalSub(holderPassword)
	h := e.holder()
	for i := range 10 {
		if res, _ := h.login(email, "Wr0ng!pass", ""); res.StatusCode != 401 {
			t.Fatalf("failure %d: %d", i+1, res.StatusCode)
		}
	}
	res, body := h.login(email, holderPassword, "")
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" || !strings.Contains(body, "Muitas tentativas") {
		t.Fatalf("the 11th login: %d Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if res, _ := h.login(bystander, holderPassword, ""); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("another e-mail from the same address: %d", res.StatusCode)
	}
}
