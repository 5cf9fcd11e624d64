package api

import (
	"context"
	"net/http"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

func TestHandlerCheckout(t *testing.T) {
	t.Parallel()
	const path = "/v1/payment-links/checkout"
	refusals := []struct{ name, body, message string }{
		{"no link", `{"method":"PIX"}`, "linkId is required"},
		{"no method", `{"linkId":"plink_1"}`, "method is required"},
		{"boleto", `{"linkId":"plink_1","method":"BOLETO"}`, "method must be PIX or CRYPTO"},
		{"payer as a string", `{"linkId":"plink_1","method":"PIX","payer":"Ana"}`, "payer must be an object"},
		{"bad document", `{"linkId":"plink_1","method":"PIX","payer":{"document":"111"}}`, "payer.document must be a valid CPF or CNPJ"},
		{"bad e-mail", `{"linkId":"plink_1","method":"PIX","payer":{"email":"ana"}}`, "payer.email must be an e-mail address"},
		{"amount with three decimals", `{"linkId":"plink_1","method":"PIX","amount":10.001}`, "amount "},
		{"payCurrency on PIX", `{"linkId":"plink_1","method":"PIX","payCurrency":"BTC"}`, "payCurrency is only for the CRYPTO method"},
		{"unknown coin", `{"linkId":"plink_1","method":"CRYPTO","payCurrency":"DOGE"}`, "payCurrency must be one of BTC, ETH, USDT, XRP"},
	}
	for _, tc := range refusals {
		t.Run(tc.name+" → 400", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("payment-links/checkout")
			expectFail(t, f.merchant("POST", path, tc.body), http.StatusBadRequest, tc.message)
		})
	}
	for _, tc := range []struct {
		name   string
		err    error
		status int
	}{
		{"inactive link", domain.Invalid("linkId", "names an inactive payment link"), http.StatusBadRequest},
		{"another account's link", domain.NotFound("payment link"), http.StatusNotFound},
		{"unverified account", domain.Forbidden("checkout needs a verified account"), http.StatusForbidden},
	} {
		t.Run(tc.name+" → the use case's refusal", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("payment-links/checkout")
			f.checkouts.EXPECT().Checkout(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(service.CheckoutResult{}, tc.err)
			expectFail(t, f.merchant("POST", path, `{"linkId":"plink_1","method":"PIX"}`), tc.status, tc.err.Error())
		})
	}

	t.Run("valid body → the session with its code and payCheckoutUrl", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("payment-links/checkout")
		f.checkouts.EXPECT().Checkout(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
			DoAndReturn(func(_ context.Context, _ domain.Account, _ domain.APIKey, in checkout.NewCheckout) (service.CheckoutResult, error) {
				if in.LinkID != "plink_1" || in.Method != domain.MethodPix || in.Amount == nil || *in.Amount != money.Cents(1250) ||
					in.CouponCode != "PROMO" || !in.Payer.Complete() {
					t.Errorf("checkout = %+v", in)
				}
				s := routeSession
				s.DiscountAmount, s.Amount = 125, 1125
				return service.CheckoutResult{Session: s, CopyPaste: "000201", QRCodeBase64: "data:image/png;base64,AA=="}, nil
			})
		data := expectOK(t, f.merchant("POST", path, `{"linkId":"plink_1","method":"pix","amount":12.50,"couponCode":"PROMO",`+
			`"payer":{"name":"Ana Lima","document":"529.982.247-25","email":"ana@example.com"}}`), "Checkout session created")
		expectFields(t, data, map[string]string{"sessionId": `"cs_1"`, "status": `"OPEN"`, "amount": `11.25`, "discountAmount": `1.25`,
			"transactionId": `"tx_1"`, "copyPaste": `"000201"`, "payCheckoutUrl": `"` + testPublicURL + `/pay/session/cs_1"`})
		expectAbsent(t, data, "accountId", "delivery")
	})

	t.Run("CRYPTO → the session with its deposit's address and amount (USDT by default)", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("payment-links/checkout")
		f.checkouts.EXPECT().Checkout(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
			DoAndReturn(func(_ context.Context, _ domain.Account, _ domain.APIKey, in checkout.NewCheckout) (service.CheckoutResult, error) {
				if in.Method != checkout.MethodCrypto || in.PayCurrency.Code != checkout.CheckoutCryptoDefault {
					t.Errorf("checkout = %+v", in)
				}
				s := routeSession
				s.Method = checkout.MethodCrypto
				return service.CheckoutResult{Session: s, Crypto: &service.CheckoutCrypto{Address: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
					PayCurrency: "USDT", PayAmount: domain.CryptoAmount{Units: 10_000_000, Decimals: 6}, Rate: 550}}, nil
			})
		data := expectOK(t, f.merchant("POST", path, `{"linkId":"plink_1","method":"crypto"}`), "Checkout session created")
		expectFields(t, data, map[string]string{"method": `"CRYPTO"`, "address": `"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"`,
			"payCurrency": `"USDT"`, "payAmount": `10.000000`, "rate": `5.50`})
		expectAbsent(t, data, "copyPaste", "qrCodeBase64", "extraId")
	})

	t.Run("the route is under the Idempotency-Key middleware: another body → 400", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("payment-links/checkout")
		f.idem.EXPECT().Claim(gomock.Any(), testAccountID, gomock.Any(), gomock.Any()).Return(service.IdempotencyClaim{Mismatch: true}, nil)
		w := f.serve("POST", path, `{"linkId":"plink_1","method":"PIX"}`, "X-API-Key", testSecret, "Idempotency-Key", "k1")
		expectFail(t, w, http.StatusBadRequest, "Idempotency-Key was already used with another request")
	})
}

func TestHandlerCheckoutSession(t *testing.T) {
	t.Parallel()
	t.Run("a paid session shows its delivery", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("payment-links/sessions/get")
		s := routeSession
		s.Status = checkout.SessionPaid
		s.Delivery = domain.SomeJSON([]checkout.SessionDelivery{{ProductID: "prod_1", Type: "TEXT_LINES", Content: "KEY-1"}})
		f.checkouts.EXPECT().Session(gomock.Any(), gomock.Any(), "cs_1").Return(s, nil)
		data := expectOK(t, f.merchant("GET", "/v1/payment-links/sessions/get/cs_1", ""), "Checkout session")
		expectFields(t, data, map[string]string{"status": `"PAID"`,
			"delivery": `[{"productId":"prod_1","productName":"","type":"TEXT_LINES","content":"KEY-1"}]`})
	})
	t.Run("another account's session → 404", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("payment-links/sessions/get")
		f.checkouts.EXPECT().Session(gomock.Any(), gomock.Any(), "cs_x").Return(checkout.CheckoutSession{}, domain.NotFound("checkout session"))
		expectFail(t, f.merchant("GET", "/v1/payment-links/sessions/get/cs_x", ""), http.StatusNotFound, "checkout session not found")
	})
}
