package api

import (
	"net/http"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

// cryptoSend is a withdrawal create (auto: quote and send in one call).
func cryptoSend(path string, auto bool) routeCase {
	body := `{"address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","payCurrency":"ETH","amount":100}`
	return routeCase{path, body, "Crypto withdrawal created", func(f *fixture) {
		if auto {
			f.crypto.EXPECT().SendAuto(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(routeTx, nil)
			return
		}
		f.crypto.EXPECT().CreateWithdrawal(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(routeTx, nil)
	}}
}

// Bad input is a 400 naming the field, before any use case is called.
func TestHandlerRechargeAndCryptoRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, method, path, body, message string
	}{
		{"provider of a landline", "GET", "/v1/mobile-recharge/provider/1133334444", "", "phone must have a two-digit area code"},
		{"provider of an unknown area code", "GET", "/v1/mobile-recharge/provider/20987654321", "", "phone has area code 20"},
		{"provider of a non-mobile", "GET", "/v1/mobile-recharge/provider/11887654321", "", "phone must be a mobile number"},
		{"create without phone", "POST", "/v1/mobile-recharge/create", `{"amount":20}`, "phone is required"},
		{"create with a bad phone", "POST", "/v1/mobile-recharge/create", `{"phone":"abc","amount":20}`, "phone must be a Brazilian mobile number"},
		{"create with three decimals", "POST", "/v1/mobile-recharge/create", `{"phone":"11987654321","amount":20.001}`, "amount must be a number"},
		{"deposit in an unknown currency", "POST", "/v1/payment-crypto/create", `{"amount":10,"payCurrency":"DOGE"}`, "payCurrency must be one of BTC, ETH, USDT, XRP"},
		{"deposit without amount", "POST", "/v1/payment-crypto/create", `{"payCurrency":"BTC"}`, "amount is required"},
		{"quote of a negative amount", "POST", "/v1/transfer-crypto/quote", `{"amount":-1,"payCurrency":"BTC"}`, "amount must be between"},
		{"withdrawal to a bad bitcoin checksum", "POST", "/v1/transfer-crypto/create",
			`{"address":"1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb","payCurrency":"BTC","amount":10}`, "address is not a valid BTC address"},
		{"withdrawal to a bad EIP-55 case", "POST", "/v1/transfer-crypto/create",
			`{"address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD","payCurrency":"ETH","amount":10}`, "address is not a valid ETH address"},
		{"XRP without extraId", "POST", "/v1/transfer-crypto-auto/create",
			`{"address":"rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh","payCurrency":"XRP","amount":10}`, "extraId is required for XRP"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).withAllFeatures("*") // no use case expected: none may be called
			expectFail(t, f.merchant(c.method, c.path, c.body), http.StatusBadRequest, c.message)
		})
	}
}

// A use case's business errors map once: an amount the operator does not
// offer and an expired quote are 400s, another account's recharge a 404.
func TestHandlerRechargeAndCryptoErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t).withAllFeatures("*")
	f.recharges.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
		Return(domain.Transaction{}, mobile.OfferedAmount(1234, []money.Cents{1000, 2000}))
	expectFail(t, f.merchant("POST", "/v1/mobile-recharge/create", `{"phone":"11987654321","amount":12.34}`), http.StatusBadRequest,
		"amount must be one of the amounts offered for this number: 10.00, 20.00")
	f.recharges.EXPECT().Cancel(gomock.Any(), gomock.Any(), "tx_other").Return(domain.Transaction{}, domain.NotFound("transaction"))
	expectFail(t, f.merchant("POST", "/v1/mobile-recharge/cancel/tx_other", ""), http.StatusNotFound, "transaction not found")
	f.crypto.EXPECT().CreateWithdrawal(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
		Return(domain.Transaction{}, domain.Invalid("quoteId", "has expired"))
	expectFail(t, f.merchant("POST", "/v1/transfer-crypto/create", `{"address":"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed","payCurrency":"ETH","amount":1}`),
		http.StatusBadRequest, "quoteId has expired")
	f.crypto.EXPECT().CreateWithdrawal(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
		Return(domain.Transaction{}, domain.Insufficient("insufficient balance"))
	expectFail(t, f.merchant("POST", "/v1/transfer-crypto/create", `{"address":"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed","payCurrency":"ETH","amount":1}`),
		http.StatusBadRequest, "insufficient balance")
}

// The provider route answers the phone in its national form, the operator
// and the amounts as numbers; a recharge shows phone, operator and
// canBeCancelled; a deposit its address, payAmount and expiresAt.
func TestHandlerRechargeAndCryptoShapes(t *testing.T) {
	t.Parallel()
	f := newFixture(t).withAllFeatures("*")
	f.recharges.EXPECT().Provider(gomock.Any(), gomock.Any(), mobile.MobileNumber{DDD: "21", Number: "998765432"}).
		Return(service.RechargeProvider{Phone: "21998765432", Operator: "TIM", Amounts: []money.Cents{1000, 1500}}, nil)
	d := expectOK(t, f.merchant("GET", "/v1/mobile-recharge/provider/+5521998765432", ""), "Mobile recharge provider")
	if string(d["phone"]) != `"21998765432"` || string(d["operator"]) != `"TIM"` || string(d["amounts"]) != `[10.00,15.00]` {
		t.Fatalf("provider answer %s %s %s", d["phone"], d["operator"], d["amounts"])
	}
	rec := domain.Transaction{ID: "tx_r", Type: domain.TypeMobileRecharge, Status: domain.StatusPending, Amount: 2000, CreatedAt: routeTime,
		Details: domain.SomeJSON(domain.Details{Recharge: &domain.RechargeBlock{Phone: "21998765432", Operator: "TIM"}})}
	f.recharges.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(rec, nil)
	d = expectOK(t, f.merchant("POST", "/v1/mobile-recharge/create", `{"phone":"21998765432","amount":20}`), "Mobile recharge created")
	if string(d["canBeCancelled"]) != "true" || string(d["status"]) != `"PENDING"` || string(d["operator"]) != `"TIM"` {
		t.Fatalf("recharge answer %v", d)
	}
	dep := domain.Transaction{ID: "tx_d", Type: domain.TypeCryptoIn, Status: domain.StatusPending, Amount: 10000, ExpiresAt: &routeTime,
		CreatedAt: routeTime, Details: domain.SomeJSON(domain.Details{Crypto: &domain.CryptoBlock{PayCurrency: "BTC", PayUnits: 28572,
			Rate: 35_000_000, Address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"}})}
	f.crypto.EXPECT().CreateDeposit(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(dep, nil)
	d = expectOK(t, f.merchant("POST", "/v1/payment-crypto/create", `{"amount":100,"payCurrency":"btc"}`), "Crypto deposit created")
	if string(d["payAmount"]) != "0.00028572" || string(d["address"]) != `"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"` ||
		string(d["expiresAt"]) == "" || string(d["rate"]) != "350000.00" || string(d["type"]) != `"CRYPTO_IN"` {
		t.Fatalf("deposit answer %v", d)
	}
}
