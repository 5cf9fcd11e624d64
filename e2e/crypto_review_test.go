package e2e

import (
	"testing"
)

// TestCryptoWithdrawalSecurityReview: a crypto withdrawal at or above the
// account's securityReviewThreshold is held as a PIX out is (both routes:
// quote-then-send and quote-and-send); nothing is sent while it is held
// (no processor reference, the network's notice refused); the operator's
// approve through the PIX out review route sends it, a reject returns the
// reserve exactly; below the threshold a withdrawal goes ahead at once.
func TestCryptoWithdrawalSecurityReview(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.cryptoMerchant(500)
	e.admin("PATCH", "/accounts/"+m.ID, map[string]any{"securityReviewThreshold": 100})
	eth := "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
	held := func(w map[string]any) string {
		t.Helper()
		if r, _ := w["securityReview"].(map[string]any); r == nil || r["pending"] != true || w["status"] != "PENDING" {
			t.Fatalf("not held: %v", w)
		}
		return w["id"].(string)
	}
	q := e.cryptoCall(m, "/v1/transfer-crypto/quote", map[string]any{"amount": 150, "payCurrency": "ETH"})
	approved := held(e.cryptoCall(m, "/v1/transfer-crypto/create", map[string]any{"amount": 150, "payCurrency": "ETH", "address": eth, "quoteId": q["id"]}))
	rejected := held(e.cryptoCall(m, "/v1/transfer-crypto-auto/create", map[string]any{"amount": 100, "payCurrency": "ETH", "address": eth}))
	small := e.cryptoCall(m, "/v1/transfer-crypto-auto/create", map[string]any{"amount": 99.99, "payCurrency": "ETH", "address": eth})
	if small["securityReview"] != nil {
		t.Fatalf("below the threshold, held: %v", small)
	}
	wantBalance(t, e, m, 150.01, 349.99, 150.01)
	e.waitCrypto(m, "/v1/transfer-crypto/get/", small["id"].(string), "PROCESSING")

	if r := e.call(m.Key, "POST", "/v1/sandbox/transfer-crypto/"+approved+"/settle", nil); r.Status != 400 {
		t.Fatalf("a held withdrawal settled by the network: %d %s", r.Status, r.Message)
	}
	if r := e.admin("POST", "/transfers/"+rejected+"/review", map[string]any{"decision": "reject"}); r.Status != 200 {
		t.Fatalf("reject: %d %s", r.Status, r.Message)
	}
	got := e.waitCrypto(m, "/v1/transfer-crypto/get/", rejected, "FAILED")
	if r := got["securityReview"].(map[string]any); r["pending"] != false || r["decision"] != "reject" || got["referenceId"] != nil {
		t.Fatalf("rejected: %v", got)
	}
	wantBalance(t, e, m, 250.01, 249.99, 250.01)
	// The rejected one's workflow has decided and ended; the other, under
	// the same wait, has sent nothing.
	if w := e.call(m.Key, "GET", "/v1/transfer-crypto/get/"+approved, nil).m(t); w["status"] != "PENDING" || w["referenceId"] != nil {
		t.Fatalf("sent before approval: %v", w)
	}
	if r := e.admin("POST", "/transfers/"+approved+"/review", map[string]any{"decision": "approve"}); r.Status != 200 {
		t.Fatalf("approve: %d %s", r.Status, r.Message)
	}
	sent := e.waitCrypto(m, "/v1/transfer-crypto/get/", approved, "PROCESSING")
	if sent["referenceId"] == nil || sent["securityReview"].(map[string]any)["decision"] != "approve" {
		t.Fatalf("approved: %v", sent)
	}
	for _, id := range []string{approved, small["id"].(string)} {
		if r := e.call(m.Key, "POST", "/v1/sandbox/transfer-crypto/"+id+"/settle", nil); r.Status != 200 {
			t.Fatalf("settle %s: %d %s", id, r.Status, r.Message)
		}
		e.waitCrypto(m, "/v1/transfer-crypto/get/", id, "COMPLETED")
	}
	wantBalance(t, e, m, 250.01, 0, 250.01)
	if r := e.admin("POST", "/transfers/"+rejected+"/review", map[string]any{"decision": "approve"}); r.Status != 400 {
		t.Fatalf("deciding twice: %d", r.Status)
	}
	e.verifyLedger()
}
