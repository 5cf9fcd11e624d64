package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/jangada/jangada/brcode"
)

// The create routes, with the permission each takes.
var createRoutes = []struct{ path, permission string }{
	{"/v1/payment-pix/create", "payment-pix/create"},
	{"/v1/transfer-pix/create", "transfer-pix/create"},
	{"/v1/payouts/create", "payouts/create"},
	{"/v1/transfer-internal/create", "transfer-internal/create"},
	{"/v1/refunds/create", "refunds/create"},
	{"/v1/transfer-scheduled/create", "transfer-scheduled/create"},
}

// validCPF is a CPF with correct check digits (a public test number).
const validCPF = "529.982.247-25"

// jsonString quotes s as a JSON string.
func jsonString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func encodeBRCode(t *testing.T, p brcode.Payload) string {
	t.Helper()
	p.MerchantName, p.MerchantCity = "Loja Teste", "Sao Paulo"
	code, err := brcode.Encode(p)
	if err != nil {
		t.Fatalf("brcode.Encode(%+v): %v", p, err)
	}
	return code
}

// Bodies every create route must refuse before calling its use case.
func TestHandlerCreateRejectsMalformedBodies(t *testing.T) {
	t.Parallel()
	huge := `{"description":"` + strings.Repeat("a", maxBody) + `"}`
	bodies := []struct {
		name, body, message string
	}{
		{"bad JSON", `{"amount": 10,`, "request body must be a JSON object"},
		{"trailing garbage", `{"amount": 10} x`, "request body must be a JSON object"},
		{"array body", `[{"amount": 10}]`, "request body must be a JSON object"},
		{"string body", `"amount=10"`, "request body must be a JSON object"},
		{"number body", `10`, "request body must be a JSON object"},
		{"null body", `null`, "request body must be a JSON object"},
		{"form-encoded body", `amount=10&description=abc`, "request body must be a JSON object"},
		{"body over 1 MiB", huge, "request body is larger than 1 MiB"},
	}
	for _, r := range createRoutes {
		for _, b := range bodies {
			t.Run("POST "+r.path+": "+b.name+" → 400", func(t *testing.T) {
				t.Parallel()
				f := newFixture(t).authorized(r.permission)
				expectFail(t, f.merchant("POST", r.path, b.body), http.StatusBadRequest, b.message)
			})
		}
	}
}

// Field-level refusals: 400 (403 for sub-accounts) naming the field, and
// the use case mock is never called (gomock fails on an unexpected call).
func TestHandlerCreateValidation(t *testing.T) {
	t.Parallel()
	const (
		charge   = "/v1/payment-pix/create"
		transfer = "/v1/transfer-pix/create"
		payout   = "/v1/payouts/create"
		internal = "/v1/transfer-internal/create"
		refund   = "/v1/refunds/create"
		sched    = "/v1/transfer-scheduled/create"
	)
	long := func(n int) string { return `"` + strings.Repeat("x", n) + `"` }
	withAmount := encodeBRCode(t, brcode.Payload{Key: "loja@example.com", Amount: 1234, TxID: "***"})
	dynamic := encodeBRCode(t, brcode.Payload{URL: "pix.example.com/qr/v2/cobv/abc123", TxID: "***"})
	threshold := func(payload string) string {
		return `{"triggerType":"BALANCE_THRESHOLD","balanceThreshold":100,"payload":` + payload + `}`
	}
	interna := `{"method":"interna","amount":5,"recipientEmail":"bob@example.com"}`

	cases := []struct {
		path, name, body string
		status           int // 400 unless set
		message          string
	}{
		// POST /v1/payment-pix/create
		{charge, "empty body", ``, 0, "amount is required"},
		{charge, "no amount", `{"description":"Pedido 1"}`, 0, "amount is required"},
		{charge, "null amount", `{"amount":null,"description":"Pedido 1"}`, 0, "amount is required"},
		{charge, "amount as a string", `{"amount":"10.00","description":"Pedido 1"}`, 0, "amount must be a number, not a string"},
		{charge, "amount with three decimals", `{"amount":10.001,"description":"Pedido 1"}`, 0, "amount must be a number with at most two decimal places"},
		{charge, "amount as a boolean", `{"amount":true,"description":"Pedido 1"}`, 0, "amount must be a number"},
		{charge, "amount as an object", `{"amount":{"value":10},"description":"Pedido 1"}`, 0, "amount must be a number"},
		{charge, "amount below R$ 1.00", `{"amount":0.99,"description":"Pedido 1"}`, 0, "amount must be between 1.00 and 1000000.00"},
		{charge, "negative amount", `{"amount":-10,"description":"Pedido 1"}`, 0, "amount must be between 1.00 and 1000000.00"},
		{charge, "amount above R$ 1,000,000.00", `{"amount":1000000.01,"description":"Pedido 1"}`, 0, "amount must be between 1.00 and 1000000.00"},
		{charge, "amount beyond any payment", `{"amount":1e20,"description":"Pedido 1"}`, 0, "amount must be between"},
		{charge, "no description", `{"amount":10}`, 0, "description is required"},
		{charge, "description as a list", `{"amount":10,"description":["Pedido"]}`, 0, "description must be a string"},
		{charge, "description too short", `{"amount":10,"description":"  ab  "}`, 0, "description must have from 3 to 180 characters"},
		{charge, "description too long", `{"amount":10,"description":` + long(181) + `}`, 0, "description must have from 3 to 180 characters"},
		{charge, "coverFee as a string", `{"amount":10,"description":"Pedido 1","coverFee":"yes"}`, 0, "coverFee must be true or false"},
		{charge, "emitFiscalInvoice as a number", `{"amount":10,"description":"Pedido 1","emitFiscalInvoice":1}`, 0, "emitFiscalInvoice must be true or false"},
		{charge, "expirationSeconds below 60", `{"amount":10,"description":"Pedido 1","expirationSeconds":59}`, 0, "expirationSeconds must be an integer from 60 to 604800"},
		{charge, "expirationSeconds above 7 days", `{"amount":10,"description":"Pedido 1","expirationSeconds":604801}`, 0, "expirationSeconds must be an integer from 60 to 604800"},
		{charge, "fractional expirationSeconds", `{"amount":10,"description":"Pedido 1","expirationSeconds":60.5}`, 0, "expirationSeconds must be an integer"},
		{charge, "expirationSeconds as a string", `{"amount":10,"description":"Pedido 1","expirationSeconds":"3600"}`, 0, "expirationSeconds must be an integer"},
		{charge, "payer not an object", `{"amount":10,"description":"Pedido 1","payer":"Ana"}`, 0, "payer must be an object"},
		{charge, "payer.name not a string", `{"amount":10,"description":"Pedido 1","payer":{"name":7}}`, 0, "payer.name must be a string"},
		{charge, "invalid payer.document", `{"amount":10,"description":"Pedido 1","payer":{"name":"Ana","document":"111.111.111-11"}}`, 0, "payer.document must be a valid CPF or CNPJ"},
		{charge, "empty externalReference", `{"amount":10,"description":"Pedido 1","externalReference":"  "}`, 0, "externalReference must have at most 120 characters"},
		{charge, "externalReference too long", `{"amount":10,"description":"Pedido 1","externalReference":` + long(121) + `}`, 0, "externalReference must have at most 120 characters"},
		{charge, "splitTax above 100", `{"amount":10,"description":"Pedido 1","splitUser":"p@example.com","splitTax":100.01}`, 0, "splitTax must be between 0.01 and 100"},
		{charge, "splitTax with three decimals", `{"amount":10,"description":"Pedido 1","splitTax":1.234}`, 0, "splitTax must be a number with at most two decimal places"},
		{charge, "pixRail sent", `{"amount":10,"description":"Pedido 1","pixRail":"PADRAO"}`, 0, "pixRail must not be sent"},

		// POST /v1/transfer-pix/create (and its /payouts alias, below)
		{transfer, "empty body", `{}`, 0, "pixKey or pixCopyPaste is required"},
		{transfer, "pixKey without pixKeyType", `{"amount":25,"pixKey":"a@example.com"}`, 0, "pixKeyType is required with pixKey"},
		{transfer, "unknown pixKeyType", `{"amount":25,"pixKey":"a@example.com","pixKeyType":"IBAN"}`, 0, "pixKeyType must be one of CPF, CNPJ, EMAIL, TELEFONE, CHAVE_ALEATORIA"},
		{transfer, "pixKeyType as a number", `{"amount":25,"pixKey":"a@example.com","pixKeyType":3}`, 0, "pixKeyType must be a string"},
		{transfer, "pixKey as a number", `{"amount":25,"pixKey":52998224725,"pixKeyType":"CPF"}`, 0, "pixKey must be a string"},
		{transfer, "invalid EMAIL key", `{"amount":25,"pixKey":"not-an-email","pixKeyType":"EMAIL"}`, 0, "pixKey is not a valid EMAIL key"},
		{transfer, "invalid CPF key", `{"amount":25,"pixKey":"123.456.789-00","pixKeyType":"cpf"}`, 0, "pixKey is not a valid CPF key"},
		{transfer, "both pixKey and pixCopyPaste", `{"amount":12.34,"pixKey":"a@example.com","pixKeyType":"EMAIL","pixCopyPaste":` + jsonString(t, withAmount) + `}`, 0, "send either pixKey with pixKeyType or pixCopyPaste, not both"},
		{transfer, "pixCopyPaste not a BR Code", `{"amount":25,"pixCopyPaste":"pix please"}`, 0, "pixCopyPaste is not a valid BR Code"},
		{transfer, "pixCopyPaste without a key", `{"amount":25,"pixCopyPaste":` + jsonString(t, dynamic) + `}`, 0, "pixCopyPaste carries no PIX key"},
		{transfer, "amount differing from the BR Code's", `{"amount":10,"pixCopyPaste":` + jsonString(t, withAmount) + `}`, 0, "amount must equal the BR Code's amount of 12.34"},
		{transfer, "no amount", `{"pixKey":"a@example.com","pixKeyType":"EMAIL"}`, 0, "amount is required"},
		{transfer, "zero amount", `{"amount":0,"pixKey":"a@example.com","pixKeyType":"EMAIL"}`, 0, "amount must be between 0.01 and 1000000.00"},
		{transfer, "negative amount", `{"amount":-0.01,"pixKey":"a@example.com","pixKeyType":"EMAIL"}`, 0, "amount must be between 0.01 and 1000000.00"},
		{transfer, "amount above R$ 1,000,000.00", `{"amount":1000000.01,"pixKey":"a@example.com","pixKeyType":"EMAIL"}`, 0, "amount must be between 0.01 and 1000000.00"},
		{transfer, "amount with three decimals", `{"amount":25.001,"pixKey":"a@example.com","pixKeyType":"EMAIL"}`, 0, "amount must be a number with at most two decimal places"},
		{transfer, "amount as a string", `{"amount":"25.00","pixKey":"a@example.com","pixKeyType":"EMAIL"}`, 0, "amount must be a number, not a string"},
		{transfer, "coverFee as a number", `{"amount":25,"pixKey":"a@example.com","pixKeyType":"EMAIL","coverFee":0}`, 0, "coverFee must be true or false"},
		{transfer, "description too long", `{"amount":25,"pixKey":"a@example.com","pixKeyType":"EMAIL","description":` + long(141) + `}`, 0, "description must have at most 140 characters"},
		{transfer, "empty externalReference", `{"amount":25,"pixKey":"a@example.com","pixKeyType":"EMAIL","externalReference":""}`, 0, "externalReference must have at most 120 characters"},
		{transfer, "pixRail sent", `{"amount":25,"pixKey":"a@example.com","pixKeyType":"EMAIL","pixRail":{"name":"PADRAO"}}`, 0, "pixRail must not be sent"},
		{transfer, "empty subaccountId", `{"amount":25,"pixKey":"a@example.com","pixKeyType":"EMAIL","subaccountId":" "}`, 0, "subaccountId must have at most 64 characters"},
		{payout, "empty body", `{}`, 0, "pixKey or pixCopyPaste is required"},
		{payout, "amount with three decimals", `{"amount":25.001,"pixKey":"a@example.com","pixKeyType":"EMAIL"}`, 0, "amount must be a number with at most two decimal places"},
		{payout, "amount as a string", `{"amount":"25","pixKey":"a@example.com","pixKeyType":"EMAIL"}`, 0, "amount must be a number, not a string"},
		{payout, "zero amount", `{"amount":0,"pixKey":"a@example.com","pixKeyType":"EMAIL"}`, 0, "amount must be between 0.01 and 1000000.00"},

		// POST /v1/transfer-internal/create
		{internal, "empty body", `{}`, 0, "amount is required"},
		{internal, "zero amount", `{"amount":0,"recipientEmail":"bob@example.com"}`, 0, "amount must be between 0.01 and 1000000.00"},
		{internal, "amount above R$ 1,000,000.00", `{"amount":1000000.01,"recipientEmail":"bob@example.com"}`, 0, "amount must be between 0.01 and 1000000.00"},
		{internal, "amount with three decimals", `{"amount":0.005,"recipientEmail":"bob@example.com"}`, 0, "amount must be a number with at most two decimal places"},
		{internal, "amount as a string", `{"amount":"1.00","recipientEmail":"bob@example.com"}`, 0, "amount must be a number, not a string"},
		{internal, "no recipientEmail", `{"amount":1}`, 0, "recipientEmail is required"},
		{internal, "recipientEmail as a number", `{"amount":1,"recipientEmail":42}`, 0, "recipientEmail must be a string"},
		{internal, "recipientEmail not an address", `{"amount":1,"recipientEmail":"bob.example.com"}`, 0, "recipientEmail must be an e-mail address"},
		{internal, "description too long", `{"amount":1,"recipientEmail":"bob@example.com","description":` + long(141) + `}`, 0, "description must have at most 140 characters"},
		{internal, "externalReference too long", `{"amount":1,"recipientEmail":"bob@example.com","externalReference":` + long(121) + `}`, 0, "externalReference must have at most 120 characters"},

		// POST /v1/refunds/create
		{refund, "empty body", `{}`, 0, "transactionId or e2eId is required"},
		{refund, "blank transactionId", `{"transactionId":"  ","amount":10}`, 0, "transactionId or e2eId is required"},
		{refund, "transactionId as a number", `{"transactionId":5,"amount":10}`, 0, "transactionId must be a string"},
		{refund, "no amount", `{"transactionId":"tx_in_1"}`, 0, "amount is required and must equal the deposit's gross amount"},
		{refund, "amount as a string", `{"e2eId":"E1234","amount":"10.50"}`, 0, "amount must be a number, not a string"},
		{refund, "amount with three decimals", `{"e2eId":"E1234","amount":10.555}`, 0, "amount must be a number with at most two decimal places"},
		{refund, "amount beyond any payment", `{"e2eId":"E1234","amount":-1e16}`, 0, "amount must be between"},
		{refund, "refundId too long", `{"transactionId":"tx_in_1","amount":10,"refundId":` + long(36) + `}`, 0, "refundId must have at most 35 characters"},
		{refund, "unknown nature", `{"transactionId":"tx_in_1","amount":10,"nature":"PARCIAL"}`, 0, "nature must be ORIGINAL or RETIRADA"},
		{refund, "description too long", `{"transactionId":"tx_in_1","amount":10,"description":` + long(141) + `}`, 0, "description must have at most 140 characters"},
		{refund, "empty subaccountId", `{"transactionId":"tx_in_1","amount":10,"subaccountId":" "}`, 0, "subaccountId must have at most 64 characters"},

		// POST /v1/transfer-scheduled/create
		{sched, "empty body", `{}`, 0, "triggerType is required"},
		{sched, "unknown triggerType", `{"triggerType":"WEEKLY","payload":` + interna + `}`, 0, "triggerType must be ONCE, RECURRING or BALANCE_THRESHOLD"},
		{sched, "triggerType as a number", `{"triggerType":1}`, 0, "triggerType must be a string"},
		{sched, "ONCE without scheduledAt", `{"triggerType":"ONCE","payload":` + interna + `}`, 0, "scheduledAt is required"},
		{sched, "ONCE with a date-time without zone", `{"triggerType":"ONCE","scheduledAt":"2099-03-15T09:00:00","payload":` + interna + `}`, 0, "scheduledAt must be an ISO 8601 date-time with a time zone"},
		{sched, "ONCE in the past", `{"triggerType":"ONCE","scheduledAt":"2020-01-01T00:00:00Z","payload":` + interna + `}`, 0, "scheduledAt must be in the future"},
		{sched, "RECURRING without a rule", `{"triggerType":"RECURRING","payload":` + interna + `}`, 0, "recurrenceRule is required with triggerType RECURRING"},
		{sched, "recurrenceRule not an object", `{"triggerType":"RECURRING","recurrenceRule":"daily","payload":` + interna + `}`, 0, "recurrenceRule must be an object"},
		{sched, "rule without interval", `{"triggerType":"RECURRING","recurrenceRule":{"time":"09:00"},"payload":` + interna + `}`, 0, "recurrenceRule.interval is required"},
		{sched, "weekly rule without dayOfWeek", `{"triggerType":"RECURRING","recurrenceRule":{"interval":"weekly","time":"09:00"},"payload":` + interna + `}`, 0, "recurrenceRule.dayOfWeek is required with interval weekly"},
		{sched, "rule dayOfWeek as a string", `{"triggerType":"RECURRING","recurrenceRule":{"interval":"weekly","time":"09:00","dayOfWeek":"1"}}`, 0, "recurrenceRule.dayOfWeek must be an integer"},
		{sched, "rule with a bad time", `{"triggerType":"RECURRING","recurrenceRule":{"interval":"daily","time":"9h"},"payload":` + interna + `}`, 0, "recurrenceRule.time must be a local time HH:MM"},
		{sched, "rule with an unknown time zone", `{"triggerType":"RECURRING","recurrenceRule":{"interval":"daily","time":"09:00","timezone":"Mars/Olympus"},"payload":` + interna + `}`, 0, "recurrenceRule.timezone is not a known IANA time zone"},
		{sched, "BALANCE_THRESHOLD without threshold", `{"triggerType":"BALANCE_THRESHOLD","payload":` + interna + `}`, 0, "balanceThreshold is required with triggerType BALANCE_THRESHOLD"},
		{sched, "zero balanceThreshold", `{"triggerType":"BALANCE_THRESHOLD","balanceThreshold":0,"payload":` + interna + `}`, 0, "balanceThreshold must be a positive amount in BRL"},
		{sched, "balanceThreshold with three decimals", `{"triggerType":"BALANCE_THRESHOLD","balanceThreshold":10.001}`, 0, "balanceThreshold must be a number with at most two decimal places"},
		{sched, "balanceThreshold as a string", `{"triggerType":"BALANCE_THRESHOLD","balanceThreshold":"100"}`, 0, "balanceThreshold must be a number, not a string"},
		{sched, "maxRuns zero", `{"triggerType":"BALANCE_THRESHOLD","balanceThreshold":100,"maxRuns":0,"payload":` + interna + `}`, 0, "maxRuns must be an integer from 1 to 9999"},
		{sched, "maxRuns above 9999", `{"triggerType":"BALANCE_THRESHOLD","balanceThreshold":100,"maxRuns":10000,"payload":` + interna + `}`, 0, "maxRuns must be an integer from 1 to 9999"},
		{sched, "fractional maxRuns", `{"triggerType":"BALANCE_THRESHOLD","balanceThreshold":100,"maxRuns":2.5}`, 0, "maxRuns must be an integer"},
		{sched, "label too long", `{"triggerType":"BALANCE_THRESHOLD","balanceThreshold":100,"label":` + long(121) + `,"payload":` + interna + `}`, 0, "label must have at most 120 characters"},
		{sched, "no payload", `{"triggerType":"BALANCE_THRESHOLD","balanceThreshold":100}`, 0, "payload is required"},
		{sched, "payload not an object", threshold(`"pix"`), 0, "payload must be an object"},
		{sched, "payload without method", threshold(`{}`), 0, "payload.method is required"},
		{sched, "payload cripto without address", threshold(`{"method":"cripto","amount":5,"payCurrency":"BTC"}`), 0, "payload.address is required"},
		{sched, "payload cripto with an address of another network", threshold(`{"method":"cripto","amount":5,"payCurrency":"BTC","address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}`), 0, "payload.address is not a valid BTC"},
		{sched, "payload unknown method", threshold(`{"method":"boleto","amount":5}`), 0, "payload.method must be pix_padrao, interna or cripto"},
		{sched, "payload pix without key", threshold(`{"method":"pix_padrao","amount":5}`), 0, "payload.pixKey or pixCopyPaste is required"},
		{sched, "payload pix with invalid key", threshold(`{"method":"pix_padrao","amount":5,"pixKey":"x","pixKeyType":"EMAIL"}`), 0, "payload.pixKey is not a valid EMAIL key"},
		{sched, "payload amount with three decimals", threshold(`{"method":"interna","amount":1.234,"recipientEmail":"bob@example.com"}`), 0, "payload.amount must be a number with at most two decimal places"},
		{sched, "payload amount as a string", threshold(`{"method":"interna","amount":"5","recipientEmail":"bob@example.com"}`), 0, "payload.amount must be a number, not a string"},
		{sched, "payload zero amount", threshold(`{"method":"interna","amount":0,"recipientEmail":"bob@example.com"}`), 0, "payload.amount must be between 0.01 and 1000000.00"},
		{sched, "payload interna without recipient", threshold(`{"method":"interna","amount":5}`), 0, "payload.recipientEmail is required"},
		{sched, "payload pixRail sent", threshold(`{"method":"pix_padrao","amount":5,"pixKey":"a@example.com","pixKeyType":"EMAIL","pixRail":"PADRAO"}`), 0, "payload.pixRail must not be sent"},
	}
	for _, tc := range cases {
		status := tc.status
		if status == 0 {
			status = http.StatusBadRequest
		}
		t.Run(fmt.Sprintf("POST %s: %s → %d", tc.path, tc.name, status), func(t *testing.T) {
			t.Parallel()
			// Every permission: the refusal must come from the body alone.
			f := newFixture(t).authorized("*")
			expectFail(t, f.merchant("POST", tc.path, tc.body), status, tc.message)
		})
	}
}
