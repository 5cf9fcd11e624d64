package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
)

// CRYPTO checkout: with the crypto feature on, a CRYPTO checkout
// answers the session with its own crypto deposit's address and amount
// (payCurrency named, or USDT by default); the hosted session page shows
// them; the sandbox confirming the deposit pays the session through the
// same path as a PIX session (coupon use counted, delivery, customer,
// payment_link.paid), the deposit credited in BRL at its quote, the ledger
// exact.
func TestCheckoutPaidInCrypto(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	e.enable(m, domain.FeatureCrypto)
	prod := e.product(m, map[string]any{"name": "E-book", "price": 60, "deliveries": []map[string]any{
		{"type": "TEXT_INFINITE", "richContent": "https://example.com/ebook.pdf"}}})
	cid := e.coupon(m, map[string]any{"code": "CRIPTO5", "discountType": "FIXED", "discountValue": 5})
	linkID := e.link(m, map[string]any{"name": "E-book", "fixedAmount": 60, "productIds": []string{prod},
		"allowedMethods": []string{"PIX", "CRYPTO"}, "customerMode": "REQUIRED"})
	payer := map[string]any{"name": "Ana Lima", "document": "529.982.247-25", "email": "ana@example.com"}

	if r := e.call(m.Key, "POST", "/v1/payment-links/checkout", map[string]any{"linkId": linkID, "method": "CRYPTO", "payer": payer,
		"payCurrency": "DOGE"}); r.Status != 400 || !strings.HasPrefix(r.Message, "payCurrency must be one of") {
		t.Fatalf("unknown coin: %d %s", r.Status, r.Message)
	}
	if r := e.call(m.Key, "POST", "/v1/payment-links/checkout", map[string]any{"linkId": linkID, "method": "PIX", "payer": payer,
		"payCurrency": "BTC"}); r.Status != 400 || r.Message != "payCurrency is only for the CRYPTO method" {
		t.Fatalf("coin on PIX: %d %s", r.Status, r.Message)
	}
	// 55.00 BRL after the coupon, at the sandbox's USDT rate of 5.50: 10 USDT.
	sid, txID, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "CRYPTO", "payer": payer, "couponCode": "cripto5"})
	if r.Status != 200 {
		t.Fatalf("checkout: %d %s", r.Status, r.Message)
	}
	c := r.m(t)
	addr, _ := c["address"].(string)
	if c["status"] != "OPEN" || c["method"] != "CRYPTO" || c["amount"] != 55.0 || c["payCurrency"] != "USDT" || c["payAmount"] != 10.0 ||
		c["rate"] != 5.5 || c["expiresAt"] == nil || c["copyPaste"] != nil || crypto.CryptoCurrencies["USDT"].CheckAddress(addr, "") != nil {
		t.Fatalf("checkout = %v", c)
	}
	dep := e.call(m.Key, "GET", "/v1/payment-crypto/get/"+txID, nil).m(t)
	if dep["status"] != "PENDING" || dep["amount"] != 55.0 || dep["address"] != addr || dep["expiresAt"] != c["expiresAt"] {
		t.Fatalf("deposit = %v (session expires %v)", dep, c["expiresAt"])
	}
	if res, body := e.page("GET", "/pay/session/"+sid, nil); res.StatusCode != 200 || !strings.Contains(body, addr) ||
		!strings.Contains(body, `<strong id="valor-cripto">10.000000 USDT</strong>`) || strings.Contains(body, `id="qr"`) {
		t.Fatalf("session page: %d %s", res.StatusCode, body)
	}
	// Another coin by name: its own deposit and address.
	_, btcTx, rb := e.lenient().checkout(m, map[string]any{"linkId": linkID, "method": "CRYPTO", "payer": payer, "payCurrency": "btc"}) // any case
	if rb.Status != 200 || rb.m(t)["payCurrency"] != "BTC" || rb.m(t)["payAmount"] != 0.00017143 || btcTx == txID || rb.m(t)["address"] == addr {
		t.Fatalf("BTC checkout: %d %s", rb.Status, rb.Data)
	}
	wantBalance(t, e, m, 0, 0, 0)

	if p := e.call(m.Key, "POST", "/v1/sandbox/payment-crypto/"+txID+"/pay", nil); p.Status != 200 {
		t.Fatalf("pay: %d %s", p.Status, p.Message)
	}
	eventually(t, "the session to be PAID", func() bool { return e.session(m, sid)["status"] == "PAID" })
	s := e.session(m, sid)
	d, _ := s["delivery"].([]any)
	if s["customerId"] == nil || s["paidAt"] == nil || len(d) != 1 || d[0].(map[string]any)["content"] != "https://example.com/ebook.pdf" {
		t.Fatalf("paid session = %v", s)
	}
	if cu := e.call(m.Key, "GET", "/v1/coupons/get/"+cid, nil).m(t); cu["uses"] != 1.0 {
		t.Fatalf("coupon uses = %v", cu["uses"])
	}
	cust := e.call(m.Key, "GET", "/v1/customers/get/"+s["customerId"].(string), nil).m(t)
	if cust["transactions"] != 1.0 || cust["volume"] != 55.0 {
		t.Fatalf("customer = %v", cust)
	}
	if got := e.eventTypes(sid); fmt.Sprint(got) != "[payment_link.paid]" {
		t.Fatalf("session events = %v", got)
	}
	if got := e.eventTypes(txID); len(got) != 0 { // crypto events are not active in the public API
		t.Fatalf("deposit events = %v", got)
	}
	if got := e.call(m.Key, "GET", "/v1/payment-crypto/get/"+txID, nil).m(t); got["status"] != "COMPLETED" {
		t.Fatalf("deposit = %v", got)
	}
	wantBalance(t, e, m, 55, 0, 55)
	e.verifyLedger()
}
