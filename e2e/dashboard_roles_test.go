package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// dashUser is a dashboard user's cookie jar, logged in.
type dashUser struct {
	*holder
	email string
}

// dashInvite has the operator invite a user of role to the merchant's
// account, sets its password through the link and logs it in.
func (e *env) dashInvite(m merchant, role string) dashUser {
	e.t.Helper()
	email := fmt.Sprintf("%s-%d@loja.example", role, time.Now().UnixNano())
	r := e.admin("POST", "/accounts/"+m.ID+"/users", map[string]any{"email": email, "role": role})
	if r.Status != 200 {
		e.t.Fatalf("invite: %d %s", r.Status, r.Message)
	}
	link := r.m(e.t)["setPasswordUrl"].(string)
	path := strings.TrimPrefix(link, "http://jangada.test")
	u := dashUser{holder: e.holder(), email: email}
	if res, body := u.do("GET", path, nil); res.StatusCode != 200 || !strings.Contains(body, `name="password"`) {
		e.t.Fatalf("set-password page: %d", res.StatusCode)
	}
	if res, _ := u.do("POST", path, url.Values{"password": {"Convid4do!"}}); res.StatusCode != 303 || res.Header.Get("Location") != "/dashboard/login" {
		e.t.Fatalf("set password: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := u.do("POST", path, url.Values{"password": {"Convid4do!"}}); res.StatusCode != 404 {
		e.t.Fatalf("the link used twice: %d", res.StatusCode)
	}
	if res, _ := u.do("POST", "/dashboard/login", url.Values{"email": {email}, "password": {"Convid4do!"}}); res.StatusCode != 303 {
		e.t.Fatalf("login: %d", res.StatusCode)
	}
	return u
}

var secretRe = regexp.MustCompile(`data-secret>([^<]+)<`)

// The roles and the accounts' boundaries on the running stack: a viewer
// reads money and payments and every form it sends (but its second
// factor's) is a 403 that changes nothing; a developer manages keys and
// endpoints, not users; an owner reaches no other account's payment, key,
// endpoint or delivery (404); cross-origin forms are refused.
func TestDashboardRolesAndAccounts(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, other := e.merchant(), e.merchant()
	charge := e.createCharge(m, map[string]any{"amount": 10, "description": "Pedido"})["id"].(string)
	theirCharge := e.createCharge(other, map[string]any{"amount": 10, "description": "Deles"})["id"].(string)
	ep := e.admin("POST", "/accounts/"+other.ID+"/webhooks", map[string]any{"url": "https://hooks.example.com/x", "events": []string{"*"}})
	if ep.Status != 200 {
		t.Fatalf("their endpoint: %d %s", ep.Status, ep.Message)
	}
	theirEndpoint := ep.m(t)["id"].(string)

	viewer := e.dashInvite(m, "viewer")
	for _, page := range []string{"/dashboard/", "/dashboard/transactions", "/dashboard/payments/" + charge, "/dashboard/subaccounts",
		"/dashboard/billings", "/dashboard/checkouts"} {
		if res, _ := viewer.do("GET", page, nil); res.StatusCode != 200 {
			t.Errorf("viewer GET %s = %d", page, res.StatusCode)
		}
	}
	for _, page := range []string{"/dashboard/keys", "/dashboard/webhooks", "/dashboard/users", "/dashboard/audit"} {
		if res, _ := viewer.do("GET", page, nil); res.StatusCode != 403 {
			t.Errorf("viewer GET %s = %d, want 403", page, res.StatusCode)
		}
	}
	for _, form := range []string{"/dashboard/keys", "/dashboard/keys/" + m.KeyID + "/revoke", "/dashboard/keys/" + m.KeyID + "/roll",
		"/dashboard/webhooks", "/dashboard/webhooks/whe_x/test", "/dashboard/webhooks/whe_x/status", "/dashboard/webhooks/whe_x/delete", "/dashboard/webhooks/whe_x/roll",
		"/dashboard/deliveries/dlv_x/resend", "/dashboard/users", "/dashboard/users/usr_x/remove"} {
		if res, _ := viewer.do("POST", form, url.Values{"name": {"x"}, "permissions": {"*"}, "email": {"a@b.com"}, "role": {"owner"}}); res.StatusCode != 403 {
			t.Errorf("viewer POST %s = %d, want 403", form, res.StatusCode)
		}
	}
	if r := e.call(m.Key, "GET", "/v1/payment-pix/get/"+charge, nil); r.Status != 200 {
		t.Fatalf("the viewer's refused revoke revoked the key: %d", r.Status)
	}

	dev := e.dashInvite(m, "developer")
	if res, _ := dev.do("POST", "/dashboard/users", url.Values{"email": {"x@loja.example"}, "role": {"viewer"}}); res.StatusCode != 403 {
		t.Errorf("developer invites: %d, want 403", res.StatusCode)
	}
	res, body := dev.do("POST", "/dashboard/webhooks", url.Values{"url": {"https://hooks.example.com/ok"}, "events": {"payment.paid"}})
	if res.StatusCode != 200 || !secretRe.MatchString(body) {
		t.Fatalf("developer creates an endpoint: %d", res.StatusCode)
	}

	owner := e.dashInvite(m, "owner")
	for _, page := range []string{"/dashboard/payments/" + theirCharge, "/dashboard/webhooks/" + theirEndpoint} {
		if res, _ := owner.do("GET", page, nil); res.StatusCode != 404 {
			t.Errorf("owner GET another account's %s = %d, want 404", page, res.StatusCode)
		}
	}
	for _, form := range []string{"/dashboard/keys/" + other.KeyID + "/revoke", "/dashboard/keys/" + other.KeyID + "/roll",
		"/dashboard/webhooks/" + theirEndpoint + "/test", "/dashboard/webhooks/" + theirEndpoint + "/delete",
		"/dashboard/webhooks/" + theirEndpoint + "/roll"} {
		if res, _ := owner.do("POST", form, url.Values{}); res.StatusCode != 404 {
			t.Errorf("owner POST another account's %s = %d, want 404", form, res.StatusCode)
		}
	}
	if r := e.call(other.Key, "GET", "/v1/payment-pix/get/"+theirCharge, nil); r.Status != 200 {
		t.Fatalf("another account's key after the refused revoke: %d", r.Status)
	}
	// A form another site makes the owner's browser send is refused.
	if res, _ := owner.do("POST", "/dashboard/keys", url.Values{"name": {"evil"}, "permissions": {"*"}},
		"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"); res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin form: %d, want 403", res.StatusCode)
	}
	// The owner's CSV is its statement.
	if res, body := owner.do("GET", "/dashboard/transactions.csv", nil); res.StatusCode != 200 ||
		!strings.HasPrefix(body, "id,createdAt,type,status,amount,feeAmount,netAmount,description\n") || !strings.Contains(body, charge) ||
		strings.Contains(body, theirCharge) {
		t.Fatalf("csv: %d %q", res.StatusCode, body)
	}
	// The payment's page tells its whole life: created, paid, and the
	// delivery attempt to the developer's endpoint (an address that does
	// not answer here: the attempt's error is shown).
	if p := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+charge+"/pay", nil); p.Status != 200 {
		t.Fatalf("pay: %d %s", p.Status, p.Message)
	}
	e.waitStatus(m, charge, "COMPLETED")
	eventually(t, "the payment's page to show its paid event and a delivery attempt", func() bool {
		res, body := owner.do("GET", "/dashboard/payments/"+charge, nil)
		return res.StatusCode == 200 && strings.Contains(body, "payment.paid") && strings.Contains(body, `data-step="attempt"`) &&
			strings.Contains(body, "concluído")
	})
	// The audit log holds what was done, with who and from where.
	res, body = owner.do("GET", "/dashboard/audit", nil)
	if res.StatusCode != 200 || !strings.Contains(body, dev.email) || !strings.Contains(body, "criou endpoint") || !strings.Contains(body, "127.0.0.1") {
		t.Fatalf("audit: %d", res.StatusCode)
	}
}

// A live page's stream ends once its user is removed: the removed user's
// open home page hears nothing more after the account's next event.
func TestDashboardStreamEndsWithItsUser(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	owner, viewer := e.dashInvite(m, "owner"), e.dashInvite(m, "viewer")
	req, _ := http.NewRequest("GET", e.base+"/dashboard/events", nil)
	res, err := viewer.client.Do(req)
	if err != nil || res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream: %v %v", res, err)
	}
	defer res.Body.Close()
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		buf := make([]byte, 4096)
		for {
			n, err := res.Body.Read(buf)
			if n > 0 {
				lines <- string(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	// The first read is sent at once: the stream is live.
	select {
	case first := <-lines:
		if !strings.Contains(first, "event: status") {
			t.Fatalf("first frame %q", first)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no first frame")
	}
	// The owner removes the viewer; the account's next event wakes the
	// stream, whose read finds the user gone and ends it.
	res2, body := owner.do("GET", "/dashboard/users", nil)
	id := regexp.MustCompile(`data-user="(usr_[^"]+)">\s*<td>` + regexp.QuoteMeta(viewer.email)).FindStringSubmatch(body)
	if res2.StatusCode != 200 || id == nil {
		t.Fatalf("users page: %d", res2.StatusCode)
	}
	if res, _ := owner.do("POST", "/dashboard/users/"+id[1]+"/remove", url.Values{}); res.StatusCode != 303 {
		t.Fatalf("remove: %d", res.StatusCode)
	}
	e.createCharge(m, map[string]any{"amount": 1, "description": "wake"})
	deadline := time.After(20 * time.Second)
	for {
		select {
		case _, open := <-lines:
			if !open {
				return // the stream ended
			}
		case <-deadline:
			t.Fatal("the removed user's stream is still open")
		}
	}
}
