package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
)

// cryptoMerchant is a merchant with crypto on, funded.
func (e *env) cryptoMerchant(funds float64) merchant {
	e.t.Helper()
	m := e.merchant()
	e.enable(m, domain.FeatureCrypto)
	if funds > 0 {
		e.fund(m, funds)
	}
	return m
}

func (e *env) cryptoCall(m merchant, path string, body map[string]any) map[string]any {
	e.t.Helper()
	r := e.call(m.Key, "POST", path, body)
	if r.Status != 200 {
		e.t.Fatalf("%s: %d %s", path, r.Status, r.Message)
	}
	return r.m(e.t)
}

func (e *env) waitCrypto(m merchant, path, id, want string) map[string]any {
	e.t.Helper()
	var got map[string]any
	eventually(e.t, path+id+" to be "+want, func() bool {
		got = e.call(m.Key, "GET", path+id, nil).m(e.t)
		return got["status"] == want
	})
	return got
}

// TestCryptoDepositCreditedAtTheQuote: a deposit gets its own address and
// a payAmount at the sandbox's fixed rate; paid, it is credited in BRL at
// that quote (withdrawable at once); a second payment is refused; no event
// is written (crypto events are not active in the public API).
func TestCryptoDepositCreditedAtTheQuote(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.cryptoMerchant(0)
	d := e.lenient().cryptoCall(m, "/v1/payment-crypto/create", map[string]any{"amount": 100, "payCurrency": "btc", "externalReference": "pedido-7"}) // any case
	id := d["id"].(string)
	addr, _ := d["address"].(string)
	if d["type"] != "CRYPTO_IN" || d["status"] != "PENDING" || d["payCurrency"] != "BTC" || d["payAmount"] != 0.00028572 ||
		d["rate"] != 350000.0 || d["expiresAt"] == nil || crypto.CryptoCurrencies["BTC"].CheckAddress(addr, "") != nil {
		t.Fatalf("deposit: %v", d)
	}
	d2 := e.cryptoCall(m, "/v1/payment-crypto/create", map[string]any{"amount": 100, "payCurrency": "BTC"})
	if d2["address"] == addr {
		t.Fatalf("two deposits share the address %s", addr)
	}
	x := e.cryptoCall(m, "/v1/payment-crypto/create", map[string]any{"amount": 30, "payCurrency": "XRP"})
	if x["payAmount"] != 10.0 || x["extraId"] == nil || crypto.CryptoCurrencies["XRP"].CheckAddress(x["address"].(string), x["extraId"].(string)) != nil {
		t.Fatalf("XRP deposit: %v", x)
	}
	wantBalance(t, e, m, 0, 0, 0)
	if r := e.call(m.Key, "POST", "/v1/sandbox/payment-crypto/"+id+"/pay", nil); r.Status != 200 || r.m(t)["outcome"] != "paid" {
		t.Fatalf("pay: %d %s", r.Status, r.Message)
	}
	done := e.waitCrypto(m, "/v1/payment-crypto/get/", id, "COMPLETED")
	if done["txHash"] == nil || done["completedAt"] == nil || done["expiresAt"] != nil {
		t.Fatalf("paid deposit: %v", done)
	}
	wantBalance(t, e, m, 100, 0, 100)
	if r := e.call(m.Key, "POST", "/v1/sandbox/payment-crypto/"+id+"/pay", nil); r.Status != 400 {
		t.Fatalf("paid twice: %d %s", r.Status, r.Message)
	}
	if got := e.call(m.Key, "GET", "/v1/payment-crypto/get/pedido-7", nil).m(t); got["id"] != id {
		t.Fatalf("get by externalReference: %v", got)
	}
	if l := e.call(m.Key, "GET", "/v1/payment-crypto/list?status=PENDING", nil).m(t); l["total"] != 2.0 {
		t.Fatalf("pending deposits: %v", l)
	}
	for _, dep := range []string{id, d2["id"].(string)} {
		if types := eventTypes(t, e, dep); len(types) != 0 {
			t.Fatalf("crypto events %v", types)
		}
	}
	wantBalance(t, e, m, 100, 0, 100)
	e.verifyLedger()
}

// TestCryptoWithdrawalsExactBalances: quote then send, quote-and-send, a
// failed withdrawal returning its reserve, an expired or reused quote, an
// address that fails its checksum and an overdraft refused, every balance
// exact.
func TestCryptoWithdrawalsExactBalances(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.cryptoMerchant(100)
	eth := "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"

	q := e.cryptoCall(m, "/v1/transfer-crypto/quote", map[string]any{"amount": 40, "payCurrency": "ETH"})
	if q["payAmount"] != 0.00333333 || q["rate"] != 12000.0 || q["expiresAt"] == nil || q["currency"] != "BRL" {
		t.Fatalf("quote: %v", q)
	}
	w := e.cryptoCall(m, "/v1/transfer-crypto/create", map[string]any{"amount": 40, "payCurrency": "ETH", "address": eth, "quoteId": q["id"]})
	wid := w["id"].(string)
	if w["type"] != "CRYPTO_OUT" || w["payAmount"] != 0.00333333 || w["quoteId"] != q["id"] || w["address"] != eth {
		t.Fatalf("withdrawal: %v", w)
	}
	wantBalance(t, e, m, 60, 40, 60)
	e.waitCrypto(m, "/v1/transfer-crypto/get/", wid, "PROCESSING")
	if r := e.call(m.Key, "POST", "/v1/transfer-crypto/create", map[string]any{"amount": 40, "payCurrency": "ETH", "address": eth, "quoteId": q["id"]}); r.Status != 400 ||
		!strings.HasPrefix(r.Message, "quoteId was already used") {
		t.Fatalf("quote reused: %d %s", r.Status, r.Message)
	}
	if r := e.call(m.Key, "POST", "/v1/sandbox/transfer-crypto/"+wid+"/settle", nil); r.Status != 200 {
		t.Fatalf("settle: %d %s", r.Status, r.Message)
	}
	if done := e.waitCrypto(m, "/v1/transfer-crypto/get/", wid, "COMPLETED"); done["txHash"] == nil {
		t.Fatalf("settled: %v", done)
	}
	wantBalance(t, e, m, 60, 0, 60)

	// Quote and send in one call; the network fails it: the reserve returns.
	a := e.cryptoCall(m, "/v1/transfer-crypto-auto/create", map[string]any{"amount": 30, "payCurrency": "XRP",
		"address": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "extraId": "123456"})
	aid := a["id"].(string)
	if a["payAmount"] != 10.0 || a["extraId"] != "123456" || a["quoteId"] == nil {
		t.Fatalf("auto: %v", a)
	}
	wantBalance(t, e, m, 30, 30, 30)
	e.waitCrypto(m, "/v1/transfer-crypto/get/", aid, "PROCESSING")
	if r := e.call(m.Key, "POST", "/v1/sandbox/transfer-crypto/"+aid+"/fail", nil); r.Status != 200 {
		t.Fatalf("fail: %d %s", r.Status, r.Message)
	}
	e.waitCrypto(m, "/v1/transfer-crypto/get/", aid, "FAILED")
	wantBalance(t, e, m, 60, 0, 60)

	// An expired quote, refused (a test moves its expiry into the past: it
	// cannot wait the validity out).
	q2 := e.cryptoCall(m, "/v1/transfer-crypto/quote", map[string]any{"amount": 10, "payCurrency": "BTC"})
	if _, err := e.app.DB.ExecContext(context.Background(), `UPDATE crypto_quotes SET expires_at = now() - interval '1 second' WHERE id = $1`, q2["id"]); err != nil {
		t.Fatal(err)
	}
	for _, body := range []map[string]any{
		{"amount": 10, "payCurrency": "BTC", "address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "quoteId": q2["id"]},
		{"amount": 10, "payCurrency": "BTC", "address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"}, // the latest unused quote
	} {
		if r := e.call(m.Key, "POST", "/v1/transfer-crypto/create", body); r.Status != 400 || !strings.HasPrefix(r.Message, "quoteId has expired") {
			t.Fatalf("expired quote: %d %s", r.Status, r.Message)
		}
	}
	for _, c := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"amount": 10, "payCurrency": "BTC", "address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr"}, "address is not a valid BTC address"},
		{map[string]any{"amount": 10, "payCurrency": "ETH", "address": strings.Replace(eth, "fB", "Fb", 1)}, "address is not a valid ETH address"},
		{map[string]any{"amount": 10, "payCurrency": "XRP", "address": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"}, "extraId is required for XRP"},
		{map[string]any{"amount": 60.01, "payCurrency": "ETH", "address": eth}, "insufficient balance"},
	} {
		if r := e.call(m.Key, "POST", "/v1/transfer-crypto-auto/create", c.body); r.Status != 400 || !strings.Contains(r.Message, c.want) {
			t.Errorf("%v: %d %s", c.body, r.Status, r.Message)
		}
	}
	wantBalance(t, e, m, 60, 0, 60)
	if l := e.call(m.Key, "GET", "/v1/transfer-crypto/list", nil).m(t); l["total"] != 2.0 {
		t.Fatalf("withdrawals: %v", l)
	}
	for _, id := range []string{wid, aid} {
		if types := eventTypes(t, e, id); len(types) != 0 {
			t.Fatalf("crypto events %v", types)
		}
	}
	e.verifyLedger()
}
