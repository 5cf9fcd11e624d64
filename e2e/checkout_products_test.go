package e2e

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
)

// product creates a product with deliveries and returns its id.
func (e *env) product(m merchant, body map[string]any) string {
	e.t.Helper()
	r := e.call(m.Key, "POST", "/v1/products/create", body)
	if r.Status != 200 {
		e.t.Fatalf("product: %d %s", r.Status, r.Message)
	}
	return r.m(e.t)["id"].(string)
}

// checkout runs a checkout and returns its session id and charge id.
func (e *env) checkout(m merchant, body map[string]any) (sid, txID string, r resp) {
	e.t.Helper()
	r = e.call(m.Key, "POST", "/v1/payment-links/checkout", body)
	if r.Status != 200 {
		return "", "", r
	}
	v := r.m(e.t)
	return v["sessionId"].(string), v["transactionId"].(string), r
}

// A TEXT_LINES product is sold line by line. Open sessions hold
// the lines (a checkout past the stock is refused with a clear 400), the
// sessions paid at the same time each get a different line, beside the
// product's LINK delivery; an expired session frees its line.
func TestCheckoutTextLinesUnderConcurrentPayments(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	other := e.verifiedMerchant()
	prod := e.product(m, map[string]any{"name": "Licença", "price": 10, "deliveries": []map[string]any{
		{"type": "TEXT_LINES", "linesText": "LIC-1\nLIC-2\nLIC-3\nLIC-4"},
		{"type": "LINK", "redirectUrl": "https://example.com/manual"},
	}})
	if r := e.call(m.Key, "POST", "/v1/payment-links/create", map[string]any{"name": "x", "productIds": []string{prod, "prod_nope"}}); r.Status != 400 ||
		!strings.HasPrefix(r.Message, "productIds has ids that are not products of this account: prod_nope") {
		t.Fatalf("unknown product: %d %s", r.Status, r.Message)
	}
	if r := e.call(other.Key, "POST", "/v1/payment-links/create", map[string]any{"name": "x", "productIds": []string{prod}}); r.Status != 400 {
		t.Fatalf("another account's product: %d %s", r.Status, r.Message)
	}
	linkID := e.link(m, map[string]any{"name": "Licenças", "fixedAmount": 10, "productIds": []string{prod}})

	var sids, txs []string
	for range 4 {
		sid, tx, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX"})
		if sid == "" {
			t.Fatalf("checkout: %d %s", r.Status, r.Message)
		}
		sids, txs = append(sids, sid), append(txs, tx)
	}
	if _, _, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX"}); r.Status != 400 ||
		r.Message != `linkId sells the product "Licença", which has no lines left` {
		t.Fatalf("checkout past the stock: %d %s", r.Status, r.Message)
	}
	// One session expires: its line is free again for a new checkout.
	e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+txs[3]+"/expire", nil)
	eventually(t, "the session to expire", func() bool { return e.session(m, sids[3])["status"] == "EXPIRED" })
	sid, tx, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX"})
	if sid == "" {
		t.Fatalf("checkout after an expiry: %d %s", r.Status, r.Message)
	}
	sids, txs = append(sids[:3], sid), append(txs[:3], tx)

	var wg sync.WaitGroup
	for _, tx := range txs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+tx+"/pay", nil); p.Status != 200 {
				t.Errorf("pay %s: %d %s", tx, p.Status, p.Message)
			}
		}()
	}
	wg.Wait()
	var lines []string
	for _, sid := range sids {
		eventually(t, "the session to be PAID", func() bool { return e.session(m, sid)["status"] == "PAID" })
		d := e.session(m, sid)["delivery"].([]any)
		if len(d) != 2 {
			t.Fatalf("delivery = %v", d)
		}
		for _, item := range d {
			it := item.(map[string]any)
			switch it["type"] {
			case "TEXT_LINES":
				lines = append(lines, it["content"].(string))
			case "LINK":
				if it["redirectUrl"] != "https://example.com/manual" {
					t.Fatalf("link delivery = %v", it)
				}
			}
		}
	}
	sort.Strings(lines)
	if fmt.Sprint(lines) != "[LIC-1 LIC-2 LIC-3 LIC-4]" {
		t.Fatalf("lines handed out = %v, want each line once", lines)
	}
	p := e.call(m.Key, "GET", "/v1/products/get/"+prod, nil).m(t)
	if fmt.Sprint(p["linesAvailable"]) != "0" && p["linesAvailable"] != nil {
		t.Errorf("product after the sales = %v", p)
	}
	if _, _, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX"}); r.Status != 400 {
		t.Fatalf("checkout of a sold-out product: %d %s", r.Status, r.Message)
	}
	e.verifyLedger()
}

// TestProductsSellAtTheirPrices: a link that sells products and has no
// fixed amount was sold at whatever amount the payer typed (a 500.00
// product with a line delivered for 2.00). It is priced by its products:
// an amount sent is refused on the API checkout and on the hosted page,
// and the session sells at the product's price.
func TestProductsSellAtTheirPrices(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.verifiedMerchant()
	prod := e.product(m, map[string]any{"name": "Licença cara", "price": 500, "deliveries": []map[string]any{
		{"type": "TEXT_LINES", "linesText": "CARA-1\nCARA-2"},
	}})
	linkID := e.link(m, map[string]any{"name": "Licença", "productIds": []string{prod}})
	if _, _, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX", "amount": 2}); r.Status != 400 || !strings.HasPrefix(r.Message, "amount must not be sent") {
		t.Fatalf("API checkout with the payer's amount: %d %s, want 400 naming amount", r.Status, r.Message)
	}
	if res, body := e.page("GET", "/pay/"+linkID, nil); res.StatusCode != 200 || strings.Contains(body, `name="amount"`) || !strings.Contains(body, "R$ 500,00") {
		t.Fatalf("pay page of a link with products: %d, want its price and no amount field\n%s", res.StatusCode, body)
	}
	form := url.Values{"amount": {"2,00"}, "method": {"PIX"}, "name": {"Ana Lima"}, "document": {"529.982.247-25"}, "email": {"ana@example.com"}}
	if res, body := e.page("POST", "/pay/"+linkID, form); res.StatusCode != 400 || !strings.Contains(body, "amount must not be sent") {
		t.Fatalf("page checkout with the payer's amount: %d\n%s", res.StatusCode, body)
	}
	sid, _, r := e.checkout(m, map[string]any{"linkId": linkID, "method": "PIX"})
	if sid == "" {
		t.Fatalf("checkout: %d %s", r.Status, r.Message)
	}
	if got := r.m(t); got["amount"] != 500.0 {
		t.Fatalf("session amount %v, want the product's 500.00", got["amount"])
	}
}
