package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The sub-account portal in a real browser (a phone-sized headless
// chromium): the merchant sets a portal up through the API; the holder
// logs in, enrolls TOTP (the secret read from the page's otpauth URI),
// logs out, logs in with a code, reads the balance the API shows, makes a
// PIX charge, and the charge's page says "concluído" without reloading once
// the sandbox pays it; a revoke sends the open session to the login page at
// its next request. Screenshots are kept (JANGADA_E2E_SCREENSHOTS).
func TestPortalBrowser(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	e := sharedEnv(t)
	m, sub, email := e.portalSub(holderPassword)
	shots := screenshots(t)

	login := func(code string) {
		t.Helper()
		acts := []chromedp.Action[chromedp.Void]{chromedp.Navigate(e.base + "/portal/login"), chromedp.WaitVisible("#email"),
			chromedp.SendKeys("#email", email), chromedp.SendKeys("#password", holderPassword)}
		if code != "" {
			// The first try asks for the code on a page of its own.
			acts = append(acts, chromedp.Submit("#password"), chromedp.WaitVisible("#code"),
				chromedp.SendKeys("#password", holderPassword), chromedp.SendKeys("#code", code))
		}
		acts = append(acts, chromedp.Submit("#password"), chromedp.WaitVisible("#saldo"))
		if err := chromedp.Do(ctx, acts...); err != nil {
			t.Fatalf("login (code %q): %v", code, err)
		}
	}
	login("")
	if got := value(t, ctx, chromedp.Text("[data-subaccount-name]")); got != "Maria Silva" {
		t.Fatalf("home shows %q", got)
	}

	// Enroll the second factor.
	secret, now := enrollInBrowser(t, ctx, e.base+"/portal/security/2fa")
	shots.save(ctx, "portal-recovery-codes.png")
	if e.portalStatus(m, sub)["twoFactorEnabled"] != true {
		t.Fatal("twoFactorEnabled is not true after enrolling in the browser")
	}

	// Log out, log in again with the next step's code.
	if err := chromedp.Do(ctx, chromedp.Navigate(e.base+"/portal/"), chromedp.WaitVisible("button.link"),
		chromedp.Click("button.link"), chromedp.WaitVisible("#email")); err != nil {
		t.Fatalf("logout: %v", err)
	}
	login(codeAt(t, secret, now.Add(30*time.Second)))

	// The balance is the API's.
	e.checkPortalBalance(t, m, sub, value(t, ctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`)))

	// Receive a PIX: the charge page turns paid live.
	if err := chromedp.Do(ctx, chromedp.SendKeys("#amount", "25,90"), chromedp.SendKeys("#description", "Venda no portal"),
		chromedp.Submit("#description"), chromedp.WaitVisible("#qr")); err != nil {
		t.Fatalf("charge form: %v", err)
	}
	loc := value(t, ctx, chromedp.Location())
	chargeID := loc[strings.LastIndex(loc, "/")+1:]
	if cp := value(t, ctx, chromedp.Value("#copia")); !strings.HasPrefix(cp, "000201") {
		t.Fatalf("copy-paste %q", cp)
	}
	value(t, ctx, chromedp.Evaluate[bool](`window.__notReloaded = true`))
	shots.save(ctx, "portal-charge.png")
	eventuallyWithin(t, 20*time.Second, "the charge page's event stream to watch", func() bool {
		return e.app.Watchers.Count() > 0
	})
	payAt := time.Now()
	if p := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+chargeID+"/pay", nil); p.Status != 200 {
		t.Fatalf("pay: %d %s", p.Status, p.Message)
	}
	value(t, ctx, chromedp.Poll[bool](`document.getElementById('status').textContent === 'concluído'`,
		chromedp.WithPollingInterval(10*time.Millisecond)))
	paidIn := time.Since(payAt)
	if !value(t, ctx, chromedp.Evaluate[bool](`window.__notReloaded === true`)) {
		t.Fatal(`the page reloaded to show "concluído": it must update live`)
	}
	shots.save(ctx, "portal-charge-paid.png")

	// A revoke ends the open session at its next request.
	if r := e.move(m, "portal/revoke", map[string]any{"id": sub}); r.Status != 200 {
		t.Fatalf("revoke: %d %s", r.Status, r.Message)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(e.base+"/portal/"), chromedp.WaitVisible("#email")); err != nil {
		t.Fatalf("the portal after a revoke: %v", err)
	}
	if loc := value(t, ctx, chromedp.Location()); !strings.HasSuffix(loc, "/portal/login") {
		t.Fatalf("after a revoke the portal is at %s", loc)
	}
	t.Logf("portal charge shown paid %s after the pay call; screenshots in %s", paidIn.Round(time.Millisecond), shots.dir)
	e.verifyLedger()
}
