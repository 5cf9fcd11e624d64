package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jangada/jangada/service"
)

// coupon creates a coupon and returns its id.
func (e *env) coupon(m merchant, body map[string]any) string {
	e.t.Helper()
	r := e.call(m.Key, "POST", "/v1/coupons/create", body)
	if r.Status != 200 {
		e.t.Fatalf("coupon: %d %s", r.Status, r.Message)
	}
	return r.m(e.t)["id"].(string)
}

// A coupon's discount is applied at checkout (code in any case),
// its maxUses counts the uses OPEN sessions hold (a checkout past it is
// refused with the coupon's reason), and its uses are counted when the
// sessions are paid, concurrently: never past maxUses. An expired session
// frees its use.
func TestCheckoutCouponMaxUsesUnderConcurrentPayments(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	linkID := e.link(m, map[string]any{"name": "Camiseta", "fixedAmount": 50})
	cid := e.coupon(m, map[string]any{"code": "PROMO10", "discountType": "PERCENT", "discountValue": 10, "maxUses": 2})

	if _, _, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX", "couponCode": "NOPE"}); r.Status != 400 ||
		r.Message != "couponCode is not a coupon of this store" {
		t.Fatalf("unknown coupon: %d %s", r.Status, r.Message)
	}
	var sids, txs []string
	for range 3 {
		sid, tx, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX", "couponCode": "promo10"})
		if sid == "" {
			t.Fatalf("checkout: %d %s", r.Status, r.Message)
		}
		if v := r.m(t); v["amount"] != 45.0 || v["discountAmount"] != 5.0 || v["originalAmount"] != 50.0 || v["couponCode"] != "PROMO10" {
			t.Fatalf("discounted session = %v", v)
		}
		sids, txs = append(sids, sid), append(txs, tx)
		if len(sids) == 2 {
			break
		}
	}
	if _, _, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX", "couponCode": "PROMO10"}); r.Status != 400 ||
		r.Message != "couponCode cannot be used: the coupon has reached its maximum of 2 uses" {
		t.Fatalf("checkout past maxUses: %d %s", r.Status, r.Message)
	}
	// An expired session frees its use for another checkout.
	e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+txs[1]+"/expire", nil)
	eventually(t, "the session to expire", func() bool { return e.session(m, sids[1])["status"] == "EXPIRED" })
	sid, tx, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX", "couponCode": "PROMO10"})
	if sid == "" {
		t.Fatalf("checkout after the expiry: %d %s", r.Status, r.Message)
	}
	sids, txs = []string{sids[0], sid}, []string{txs[0], tx}
	if c := e.call(m.Key, "GET", "/v1/coupons/get/"+cid, nil).m(t); c["uses"] != 0.0 {
		t.Fatalf("uses before any payment = %v", c["uses"])
	}

	var wg sync.WaitGroup
	for _, tx := range txs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+tx+"/pay", nil); p.Status != 200 {
				t.Errorf("pay: %d %s", p.Status, p.Message)
			}
		}()
	}
	wg.Wait()
	for _, sid := range sids {
		eventually(t, "the session to be PAID", func() bool { return e.session(m, sid)["status"] == "PAID" })
	}
	if c := e.call(m.Key, "GET", "/v1/coupons/get/"+cid, nil).m(t); c["uses"] != 2.0 {
		t.Fatalf("uses after two paid sessions = %v, want 2", c["uses"])
	}
	if _, _, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX", "couponCode": "PROMO10"}); r.Status != 400 {
		t.Fatalf("checkout with a used-up coupon: %d %s", r.Status, r.Message)
	}
	// A FIXED coupon that would leave less than a PIX charge's minimum.
	e.coupon(m, map[string]any{"code": "QUASE", "discountType": "FIXED", "discountValue": 49.50})
	if _, _, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX", "couponCode": "quase"}); r.Status != 400 ||
		r.Message != "couponCode leaves 0.50 to pay: a PIX charge is at least 1.00" {
		t.Fatalf("coupon below the minimum: %d %s", r.Status, r.Message)
	}
	e.verifyLedger()
}

// TestAnonymousHoldsAreShortAndValidateAgrees: every unpaid page checkout
// held a coupon use for 30 minutes, and /coupons/validate ignored the
// holds: two strangers' checkouts took a maxUses 2 coupon while validate
// still said valid. A page checkout holds for service.PageHoldTTL (10
// minutes), and validate counts the holds a checkout counts.
func TestAnonymousHoldsAreShortAndValidateAgrees(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	linkID := e.link(m, map[string]any{"name": "Camiseta", "fixedAmount": 50})
	e.coupon(m, map[string]any{"code": "DUAS", "discountType": "PERCENT", "discountValue": 10, "maxUses": 2})
	for _, who := range []string{"ana@example.com", "bia@example.com"} {
		_, body := e.page("GET", "/pay/"+linkID, nil)
		form := url.Values{"method": {"PIX"}, "couponCode": {"DUAS"}, "nonce": {formNonce(t, body)}, "email": {who}}
		res, body := e.page("POST", "/pay/"+linkID, form)
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("page checkout: %d\n%s", res.StatusCode, body)
		}
		sid := strings.TrimPrefix(res.Header.Get("Location"), "/pay/session/")
		exp, err := time.Parse(time.RFC3339, e.session(m, sid)["expiresAt"].(string))
		if err != nil || time.Until(exp) > service.PageHoldTTL+time.Minute {
			t.Fatalf("a page checkout holds until %v (%v), want at most %s", exp, err, service.PageHoldTTL)
		}
	}
	r := e.call(m.Key, "POST", "/v1/coupons/validate", map[string]any{"code": "DUAS", "amount": 50, "paymentLinkId": linkID})
	if r.Status != 200 || r.m(t)["valid"] != false {
		t.Fatalf("validate with both uses held: %d %s %s, want valid false", r.Status, r.Message, r.Data)
	}
	if _, _, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX", "couponCode": "DUAS"}); r.Status != 400 {
		t.Fatalf("checkout with both uses held: %d %s, want the refusal validate announced", r.Status, r.Message)
	}
}
