package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/jangada/jangada/app"
)

// The merchant dashboard in a real browser, on its own app (endpoints on
// a loopback receiver allowed): a merchant signs up, enrolls TOTP, logs
// out and in with a code, makes a key limited to payment-pix/*, uses it on
// the API and sees the charge appear on the home page without a reload,
// makes an endpoint on a local receiver, sends the test event and sees its
// delivery attempt with its status, then revokes the key, which the API
// refuses at once. Screenshots are kept (JANGADA_E2E_SCREENSHOTS).
func TestDashboardBrowser(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.WebhookAllowPrivate, cfg.DashboardSignup = true, true
	e := startApp(t, cfg, app.Options{API: true, Worker: true})
	ctx := newBrowser(t)
	shots := screenshots(t)
	email := fmt.Sprintf("dona-%d@loja.example", time.Now().UnixNano())
	const password = "Painel!2026"

	// Sign up.
	if err := chromedp.Do(ctx, chromedp.Navigate(e.base+"/dashboard/signup"), chromedp.WaitVisible("#name")); err != nil {
		t.Fatalf("sign-up page: %v", err)
	}
	shots.save(ctx, "dashboard-signup.png")
	if err := chromedp.Do(ctx,
		chromedp.SendKeys("#name", "Loja da Ana"), chromedp.SendKeys("#email", email),
		chromedp.SendKeys("#document", "529.982.247-25"), chromedp.SendKeys("#password", password),
		chromedp.Submit("#password"), chromedp.WaitVisible("#saldo")); err != nil {
		t.Fatalf("sign up: %v", err)
	}
	shots.save(ctx, "dashboard-home.png")

	// Enroll the second factor, then log out and in with a code.
	secret, now := enrollInBrowser(t, ctx, e.base+"/dashboard/security/2fa")
	if err := chromedp.Do(ctx, chromedp.Click(`form[action="/dashboard/logout"] button`), chromedp.WaitVisible("#email"),
		chromedp.SendKeys("#email", email), chromedp.SendKeys("#password", password), chromedp.Submit("#password"),
		chromedp.WaitVisible("#code"), chromedp.SendKeys("#password", password),
		chromedp.SendKeys("#code", codeAt(t, secret, now.Add(30*time.Second))), chromedp.Submit("#code"),
		chromedp.WaitVisible("#saldo")); err != nil {
		t.Fatalf("login with a code: %v", err)
	}

	// A key limited to payment-pix/*: its secret shown once.
	if err := chromedp.Do(ctx, chromedp.Navigate(e.base+"/dashboard/keys"), chromedp.WaitVisible("#name"),
		chromedp.SendKeys("#name", "loja-backend"), chromedp.Click(`input[name="permissions"][value="payment-pix/*"]`),
		chromedp.Submit("#name"), chromedp.WaitVisible("[data-secret]")); err != nil {
		t.Fatalf("create key: %v", err)
	}
	key, keyID := value(t, ctx, chromedp.Text("[data-secret]")), value(t, ctx, chromedp.Text("[data-key-id]"))
	shots.save(ctx, "dashboard-key.png")
	if r := e.call(key, "POST", "/v1/transfer-pix/create", map[string]any{"amount": 1, "pixKey": "a@b.com", "pixKeyType": "EMAIL"}); r.Status != 403 {
		t.Fatalf("the key outside payment-pix/*: %d", r.Status)
	}

	// The home page shows a charge made with it as it happens.
	if err := chromedp.Do(ctx, chromedp.Navigate(e.base+"/dashboard/"), chromedp.WaitVisible("#live")); err != nil {
		t.Fatalf("home live: %v", err)
	}
	value(t, ctx, chromedp.Evaluate[bool](`window.__notReloaded = true`))
	r := e.call(key, "POST", "/v1/payment-pix/create", map[string]any{"amount": 42.5, "description": "Pedido do painel"})
	if r.Status != 200 {
		t.Fatalf("charge with the dashboard's key: %d %s", r.Status, r.Message)
	}
	chargeID := r.m(t)["id"].(string)
	value(t, ctx, chromedp.Poll[bool](`document.querySelector('tr[data-record-id="`+chargeID+`"]') !== null`,
		chromedp.WithPollingInterval(20*time.Millisecond)))
	if !value(t, ctx, chromedp.Evaluate[bool](`window.__notReloaded === true`)) {
		t.Fatal("the home page reloaded to show the charge: it must update live")
	}
	if row := value(t, ctx, chromedp.Text(`tr[data-record-id="`+chargeID+`"]`)); !strings.Contains(row, "R$ 42,50") {
		t.Fatalf("the charge's row says %q", row)
	}
	shots.save(ctx, "dashboard-live-charge.png")

	// An endpoint on a local receiver, its test event and the attempt.
	recv := newReceiver(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(e.base+"/dashboard/webhooks"), chromedp.WaitVisible("#url"),
		chromedp.SendKeys("#url", recv.url()), chromedp.Click(`input[name="events"][value="webhook.test"]`),
		chromedp.Submit("#url"), chromedp.WaitVisible("[data-secret]")); err != nil {
		t.Fatalf("create endpoint: %v", err)
	}
	recv.mu.Lock()
	recv.secret = value(t, ctx, chromedp.Text("[data-secret]"))
	recv.mu.Unlock()
	endpointID := value(t, ctx, chromedp.Text("[data-endpoint-id]"))
	if !strings.HasPrefix(recv.secret, "whsec_") {
		t.Fatalf("endpoint secret %q", recv.secret)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(e.base+"/dashboard/webhooks/"+endpointID),
		chromedp.WaitVisible(`form[action$="/test"] button`)); err != nil {
		t.Fatalf("endpoint page: %v", err)
	}
	value(t, ctx, chromedp.Evaluate[bool](`window.__sent = true`))
	if err := chromedp.Do(ctx, chromedp.Click(`form[action$="/test"] button`)); err != nil {
		t.Fatalf("send the test event: %v", err)
	}
	afterForm(t, ctx, "the test event's answer")
	// The page is opened again (a whole load each time) until it shows the
	// attempt: the delivery runs in its own workflow.
	eventuallyWithin(t, 30*time.Second, "the test delivery's attempt on the endpoint's page", func() bool {
		if err := chromedp.Do(ctx, chromedp.Navigate(e.base+"/dashboard/webhooks/"+endpointID), chromedp.WaitVisible("#entregas")); err != nil {
			t.Fatalf("endpoint page: %v", err)
		}
		return value(t, ctx, chromedp.Evaluate[bool](`document.querySelector('[data-attempt][data-status-code="200"]') !== null`))
	})
	recv.mu.Lock()
	got := len(recv.got) == 1 && recv.got[0].Event == "webhook.test"
	recv.mu.Unlock()
	if !got {
		t.Fatalf("the receiver got %+v", recv.got)
	}
	shots.save(ctx, "dashboard-webhook-delivery.png")

	// Revoke the key: the API refuses it at once.
	revoke := `tr[data-key="` + keyID + `"] form[action$="/revoke"]`
	if err := chromedp.Do(ctx, chromedp.Navigate(e.base+"/dashboard/keys"), chromedp.WaitVisible(revoke)); err != nil {
		t.Fatalf("keys page: %v", err)
	}
	value(t, ctx, chromedp.Evaluate[bool](`window.__sent = true`))
	if err := chromedp.Do(ctx, chromedp.Submit(revoke)); err != nil {
		t.Fatalf("revoke: %v", err)
	}
	afterForm(t, ctx, "the revoke's answer")
	if row := value(t, ctx, chromedp.Text(`tr[data-key="`+keyID+`"]`)); !strings.Contains(row, "revogada") {
		t.Fatalf("the revoked key's row says %q", row)
	}
	if r := e.call(key, "GET", "/v1/payment-pix/get/"+chargeID, nil); r.Status != 401 {
		t.Fatalf("the revoked key: %d", r.Status)
	}
	shots.save(ctx, "dashboard-key-revoked.png")

	// Every other page of the dashboard, as it looks with this account's
	// records (docs/dashboard.md shows each).
	for _, p := range []struct{ path, shot string }{
		{"/dashboard/transactions", "dashboard-transactions.png"},
		{"/dashboard/payments/" + chargeID, "dashboard-payment.png"},
		{"/dashboard/billings", "dashboard-billings.png"},
		{"/dashboard/checkouts", "dashboard-checkouts.png"},
		{"/dashboard/subaccounts", "dashboard-subaccounts.png"},
		{"/dashboard/users", "dashboard-users.png"},
		{"/dashboard/audit", "dashboard-audit.png"},
		{"/dashboard/webhooks", "dashboard-webhooks.png"},
	} {
		if err := chromedp.Do(ctx, chromedp.Navigate(e.base+p.path), chromedp.WaitVisible("main")); err != nil {
			t.Fatalf("%s: %v", p.path, err)
		}
		shots.save(ctx, p.shot)
	}
	t.Logf("screenshots in %s", shots.dir)
}

// enrollInBrowser enrolls a second factor on an area's page (the secret
// read from the page's otpauth URI) and answers the secret and the time
// of the code that confirmed it, once the recovery codes are shown.
func enrollInBrowser(t *testing.T, ctx context.Context, page string) (string, time.Time) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitVisible("#qr")); err != nil {
		t.Fatalf("2fa page: %v", err)
	}
	secret := enrollSecret(t, `data-otpauth>`+value(t, ctx, chromedp.Text("[data-otpauth]"))+`<`)
	now := time.Now()
	if err := chromedp.Do(ctx, chromedp.SendKeys("#code", codeAt(t, secret, now)), chromedp.Submit("#code"),
		chromedp.WaitVisible("[data-recovery-code]")); err != nil {
		t.Fatalf("enroll: %v", err)
	}
	if n := value(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-recovery-code]').length`)); n != 10 {
		t.Fatalf("%d recovery codes shown", n)
	}
	return secret, now
}

// afterForm waits for the page a form's answer loads: a new document
// (window.__sent, set before the form was sent, is gone) fully loaded. A
// read while it loads fails and is tried again.
func afterForm(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	eventuallyWithin(t, 15*time.Second, what, func() bool {
		done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__sent === undefined && document.readyState === "complete"`))
		return err == nil && done
	})
}
