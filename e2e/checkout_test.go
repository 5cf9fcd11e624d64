package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// verifiedMerchant is a merchant whose account the operator verified
// (checkout's prerequisite).
func (e *env) verifiedMerchant() merchant {
	e.t.Helper()
	m := e.merchant()
	if r := e.admin("PATCH", "/accounts/"+m.ID, map[string]any{"verified": true}); r.Status != 200 {
		e.t.Fatalf("verify: %d %s", r.Status, r.Message)
	}
	return m
}

// link creates a payment link with body and returns its id.
func (e *env) link(m merchant, body map[string]any) string {
	e.t.Helper()
	r := e.call(m.Key, "POST", "/v1/payment-links/create", body)
	if r.Status != 200 {
		e.t.Fatalf("link: %d %s", r.Status, r.Message)
	}
	return r.m(e.t)["id"].(string)
}

// session reads a session through the API.
func (e *env) session(m merchant, id string) map[string]any {
	e.t.Helper()
	r := e.call(m.Key, "GET", "/v1/payment-links/sessions/get/"+id, nil)
	if r.Status != 200 {
		e.t.Fatalf("session %s: %d %s", id, r.Status, r.Message)
	}
	return r.m(e.t)
}

// eventTypes lists the types of a resource's events, in order.
func (e *env) eventTypes(resourceID string) []string {
	evs, err := db.EventsFor(context.Background(), e.app.DB, resourceID)
	if err != nil {
		e.t.Fatal(err)
	}
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.Type
	}
	return out
}

// A checkout makes an OPEN session and an ordinary PIX charge;
// paying the charge through the sandbox pays the session in the charge's
// transaction (customer made, payment_link.paid with the session beside
// payment.paid); the ledger holds.
func TestCheckoutPaidThroughItsCharge(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	linkID := e.link(m, map[string]any{"name": "Ingresso", "fixedAmount": 25, "customerMode": "REQUIRED"})

	if r := e.call(m.Key, "POST", "/v1/payment-links/checkout", map[string]any{"linkId": linkID, "method": "PIX",
		"payer": map[string]any{"name": "Ana Lima"}}); r.Status != 400 || r.Message != "payer needs name, document and email: this payment link requires the customer's data" {
		t.Fatalf("incomplete payer: %d %s", r.Status, r.Message)
	}
	r := e.call(m.Key, "POST", "/v1/payment-links/checkout", map[string]any{"linkId": linkID, "method": "PIX", "externalReference": "pedido-7",
		"payer": map[string]any{"name": "Ana Lima", "document": "529.982.247-25", "email": "ana@example.com"}})
	if r.Status != 200 {
		t.Fatalf("checkout: %d %s", r.Status, r.Message)
	}
	c := r.m(t)
	sid, txID := c["sessionId"].(string), c["transactionId"].(string)
	if c["status"] != "OPEN" || c["amount"] != 25.0 || c["copyPaste"] == "" || c["payCheckoutUrl"] != "http://jangada.test/pay/session/"+sid {
		t.Fatalf("checkout = %v", c)
	}
	charge := e.call(m.Key, "GET", "/v1/payment-pix/get/"+txID, nil)
	if charge.Status != 200 || charge.m(t)["status"] != "PENDING" || charge.m(t)["amount"] != 25.0 {
		t.Fatalf("charge: %d %s", charge.Status, charge.Data)
	}

	if p := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+txID+"/pay", nil); p.Status != 200 {
		t.Fatalf("pay: %d %s", p.Status, p.Message)
	}
	eventually(t, "the session to be PAID", func() bool { return e.session(m, sid)["status"] == "PAID" })
	s := e.session(m, sid)
	if s["customerId"] == nil || s["paidAt"] == nil || s["externalReference"] != "pedido-7" {
		t.Fatalf("paid session = %v", s)
	}
	cust := e.call(m.Key, "GET", "/v1/customers/get/"+s["customerId"].(string), nil)
	if cust.Status == 200 && (cust.m(t)["document"] != "52998224725" || cust.m(t)["transactions"] != 1.0) {
		t.Fatalf("customer = %s", cust.Data)
	}
	if got := e.eventTypes(sid); fmt.Sprint(got) != "[payment_link.paid]" {
		t.Fatalf("session events = %v", got)
	}
	if got := e.eventTypes(txID); fmt.Sprint(got) != "[payment.created payment.paid]" {
		t.Fatalf("charge events = %v", got)
	}
	evs, _ := db.EventsFor(context.Background(), e.app.DB, sid)
	var data map[string]any
	if err := json.Unmarshal(evs[0].Data, &data); err != nil || data["sessionId"] != sid || data["status"] != "PAID" || data["transactionId"] != txID {
		t.Fatalf("payment_link.paid data = %s (%v)", evs[0].Data, err)
	}
	if evs[0].APIKeyID == nil || *evs[0].APIKeyID != m.KeyID {
		t.Fatalf("payment_link.paid key = %v, want the link's %s", evs[0].APIKeyID, m.KeyID)
	}
	e.verifyLedger()
}

// A session's charge that expires expires the session; nothing
// moves in the ledger.
func TestCheckoutExpiresWithItsCharge(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	linkID := e.link(m, map[string]any{"name": "Doação"})
	r := e.call(m.Key, "POST", "/v1/payment-links/checkout", map[string]any{"linkId": linkID, "method": "PIX", "amount": 10})
	if r.Status != 200 || r.m(t)["amount"] != 10.0 {
		t.Fatalf("checkout: %d %s", r.Status, r.Data)
	}
	sid, txID := r.m(t)["sessionId"].(string), r.m(t)["transactionId"].(string)
	if x := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+txID+"/expire", nil); x.Status != 200 {
		t.Fatalf("expire: %d %s", x.Status, x.Message)
	}
	eventually(t, "the session to be EXPIRED", func() bool { return e.session(m, sid)["status"] == "EXPIRED" })
	if got := e.eventTypes(sid); len(got) != 0 {
		t.Fatalf("an expired session has events %v", got)
	}
	if p := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+txID+"/pay", nil); p.Status == 200 {
		eventually(t, "a late pay to be refused by the closed charge", func() bool { return e.session(m, sid)["status"] == "EXPIRED" })
	}
	e.verifyLedger()
}

// What a checkout refuses, each with a clear 4xx: a link that
// is inactive, deleted or another account's, a method the link does not
// take, CRYPTO without the feature, an amount on a fixed link or none on
// an open one, an unverified account.
func TestCheckoutRefusals(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	other := e.verifiedMerchant()
	unverified := e.merchant()
	fixed := e.link(m, map[string]any{"name": "Camiseta", "fixedAmount": 50})
	open := e.link(m, map[string]any{"name": "Gorjeta"})
	inactive := e.link(m, map[string]any{"name": "Velho", "fixedAmount": 5, "status": "INACTIVE"})
	deleted := e.link(m, map[string]any{"name": "Apagado", "fixedAmount": 5})
	e.call(m.Key, "DELETE", "/v1/payment-links/delete/"+deleted, nil)
	both := e.link(m, map[string]any{"name": "Cripto", "fixedAmount": 5, "allowedMethods": []string{"PIX", "CRYPTO"}})
	uLink := e.link(unverified, map[string]any{"name": "Novo", "fixedAmount": 5})

	cases := []struct {
		name   string
		key    string
		body   map[string]any
		status int
		msg    string
	}{
		{"inactive", m.Key, map[string]any{"linkId": inactive, "method": "PIX"}, 400, "linkId names an inactive payment link: it takes no checkouts"},
		{"deleted", m.Key, map[string]any{"linkId": deleted, "method": "PIX"}, 404, "payment link not found"},
		{"another account's", other.Key, map[string]any{"linkId": fixed, "method": "PIX"}, 404, "payment link not found"},
		{"method not allowed", m.Key, map[string]any{"linkId": fixed, "method": "CRYPTO"}, 400, "method is not accepted by this payment link (it accepts PIX)"},
		{"crypto without the feature", m.Key, map[string]any{"linkId": both, "method": "CRYPTO"}, 403, "CRYPTO checkout needs the crypto feature enabled on the account"},
		{"amount on a fixed link", m.Key, map[string]any{"linkId": fixed, "method": "PIX", "amount": 40}, 400, "amount must not be sent: this payment link has a fixed amount of 50.00"},
		{"no amount on an open link", m.Key, map[string]any{"linkId": open, "method": "PIX"}, 400, "amount is required: this payment link lets the payer choose the amount"},
		{"unverified account", unverified.Key, map[string]any{"linkId": uLink, "method": "PIX"}, 403, "checkout needs a verified account"},
	}
	for _, tc := range cases {
		if r := e.call(tc.key, "POST", "/v1/payment-links/checkout", tc.body); r.Status != tc.status || r.Message != tc.msg {
			t.Errorf("%s: %d %q, want %d %q", tc.name, r.Status, r.Message, tc.status, tc.msg)
		}
	}
	// Another account's session is not found.
	r := e.call(m.Key, "POST", "/v1/payment-links/checkout", map[string]any{"linkId": fixed, "method": "PIX"})
	sid := r.m(t)["sessionId"].(string)
	if g := e.call(other.Key, "GET", "/v1/payment-links/sessions/get/"+sid, nil); g.Status != 404 {
		t.Errorf("another account's session: %d", g.Status)
	}
}

// The same Idempotency-Key gives the same session and one charge,
// also when identical requests race (a request told 409 "in progress"
// retries, as clients are told to); another body under it is a 400.
func TestCheckoutIdempotentUnderARace(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	linkID := e.link(m, map[string]any{"name": "Curso", "fixedAmount": 30})
	body := map[string]any{"linkId": linkID, "method": "PIX"}
	hdr := map[string]string{"X-API-Key": m.Key, "Idempotency-Key": "race-1"}

	const n = 8
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				r := e.request("POST", "/v1/payment-links/checkout", hdr, body)
				if r.Status == http.StatusConflict {
					continue
				}
				if r.Status != 200 {
					t.Errorf("checkout %d: %d %s", i, r.Status, r.Message)
					return
				}
				var v struct {
					SessionID string `json:"sessionId"`
				}
				_ = json.Unmarshal(r.Data, &v)
				ids[i] = v.SessionID
				return
			}
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id == "" || id != ids[0] {
			t.Fatalf("sessions = %v, want one", ids)
		}
	}
	var charges, sessions int
	if err := e.app.DB.Get(&charges, `SELECT count(*) FROM transactions WHERE account_id = $1 AND type = $2`, m.ID, domain.TypePixIn); err != nil {
		t.Fatal(err)
	}
	if err := e.app.DB.Get(&sessions, `SELECT count(*) FROM checkout_sessions WHERE account_id = $1`, m.ID); err != nil {
		t.Fatal(err)
	}
	if charges != 1 || sessions != 1 {
		t.Fatalf("%d charges and %d sessions, want 1 and 1", charges, sessions)
	}
	other := map[string]any{"linkId": linkID, "method": "PIX", "couponCode": "X"}
	if r := e.request("POST", "/v1/payment-links/checkout", hdr, other); r.Status != 400 || r.Message != "Idempotency-Key was already used with another request" {
		t.Fatalf("another body: %d %s", r.Status, r.Message)
	}
}
