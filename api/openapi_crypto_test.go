package api

import (
	"encoding/json"
	"strings"
	"testing"
)

// The crypto routes' documents say what their Validate says: the required
// fields, the currencies accepted, the BRL bounds.
func TestOpenAPIDescribesCryptoRequests(t *testing.T) {
	t.Parallel()
	ops := openAPIOps(t, MerchantOpenAPI())
	coins := `"enum":["BTC","ETH","USDT","XRP"]`
	for route, wants := range map[string][]string{
		"POST /payment-crypto/create":       {`"required":["amount","payCurrency"]`, coins, `"minimum":0.01`, `"maximum":1000000`},
		"POST /transfer-crypto/quote":       {`"required":["amount","payCurrency"]`, coins, `"minimum":0.01`},
		"POST /transfer-crypto/create":      {`"required":["address","payCurrency","amount"]`, coins, `"maxLength":128`, "destination tag"},
		"POST /transfer-crypto-auto/create": {`"required":["address","payCurrency","amount"]`, coins, `"minimum":0.01`},
		"POST /payment-links/checkout":      {coins, "USDT when absent"},
	} {
		b, _ := json.Marshal(ops[route])
		for _, want := range wants {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s lacks %s in %s", route, want, b)
			}
		}
	}
}
