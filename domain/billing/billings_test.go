package billing_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/money"
)

// billingNow is 2026-11-25 22:30 in São Paulo, already the 26th in UTC:
// "today" is the São Paulo date.
var billingNow = time.Date(2026, 11, 26, 1, 30, 0, 0, time.UTC)

func billingBody(t *testing.T, js string) billing.BillingRequest {
	t.Helper()
	var b billing.BillingRequest
	if err := json.Unmarshal([]byte(js), &b); err != nil {
		t.Fatal(err)
	}
	return b
}

const (
	cust = `"customer":{"name":"Ana Souza","taxId":"529.982.247-25"}`
	visa = `"creditCard":{"holderName":"ANA SOUZA","number":"4111 1111 1111 1111","expiryMonth":"12","expiryYear":"2030","ccv":"123"}`
)

func TestBillingValidate(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		wantErr    string // substring naming the field; "" for valid
	}{
		{"boleto", `{"method":"BOLETO","amount":10.5,` + cust + `}`, ""},
		{"billingType alias", `{"billingType":"pix","amount":10,` + cust + `}`, ""},
		{"no method", `{"amount":10,` + cust + `}`, "method is required"},
		{"unknown method", `{"method":"CHEQUE","amount":10,` + cust + `}`, "method must be one of"},
		{"unknown billingType", `{"billingType":"CHEQUE","amount":10,` + cust + `}`, "billingType must be one of"},
		{"no amount", `{"method":"PIX",` + cust + `}`, "amount is required"},
		{"zero amount", `{"method":"PIX","amount":0,` + cust + `}`, "amount must be between"},
		{"over the limit", `{"method":"PIX","amount":1000000.01,` + cust + `}`, "amount must be between"},
		{"one centavo", `{"method":"BOLETO","amount":0.01,` + cust + `}`, ""},
		{"no customer", `{"method":"PIX","amount":10}`, "customer is required"},
		{"customer without taxId", `{"method":"PIX","amount":10,"customer":{"name":"Ana"}}`, "customer.taxId is required"},
		{"bad CPF", `{"method":"PIX","amount":10,"customer":{"name":"Ana","taxId":"52998224724"}}`, "customer.taxId must be a valid CPF or CNPJ"},
		{"CNPJ", `{"method":"PIX","amount":10,"customer":{"name":"Loja","taxId":"11.222.333/0001-81"}}`, ""},
		{"store customer by id", `{"method":"PIX","amount":10,"customer":{"id":"cus_1"}}`, ""},
		{"bad email", `{"method":"PIX","amount":10,"customer":{"name":"Ana","taxId":"52998224725","email":"x"}}`, "customer.email"},
		{"bad phone", `{"method":"PIX","amount":10,"customer":{"name":"Ana","taxId":"52998224725","phone":"123"}}`, "customer.phone"},
		{"due today in São Paulo", `{"method":"BOLETO","amount":10,"dueDate":"2026-11-25",` + cust + `}`, ""},
		{"due yesterday", `{"method":"BOLETO","amount":10,"dueDate":"2026-11-24",` + cust + `}`, "dueDate must not be in the past"},
		{"due not a date", `{"method":"BOLETO","amount":10,"dueDate":"25/11/2026",` + cust + `}`, "dueDate must be a date"},
		{"due impossible date", `{"method":"BOLETO","amount":10,"dueDate":"2026-02-30",` + cust + `}`, "dueDate must be a date"},
		{"credit card", `{"method":"CARD_CREDIT","amount":100,"installmentCount":21,` + cust + `,` + visa + `}`, ""},
		{"installments 22", `{"method":"CARD_CREDIT","amount":100,"installmentCount":22,` + cust + `,` + visa + `}`, "installmentCount must be an integer from 1 to 21"},
		{"installments 0", `{"method":"CARD_CREDIT","amount":100,"installmentCount":0,` + cust + `,` + visa + `}`, "installmentCount must be"},
		{"installments on a boleto", `{"method":"BOLETO","amount":100,"installmentCount":2,` + cust + `}`, "installmentCount is only for CARD_CREDIT"},
		{"credit without card", `{"method":"CARD_CREDIT","amount":100,` + cust + `}`, "creditCard or cardToken is required"},
		{"voucher with token", `{"method":"CARD_VOUCHER","amount":100,"cardToken":"ctk_1",` + cust + `}`, ""},
		{"token and card", `{"method":"CARD_CREDIT","amount":100,"cardToken":"ctk_1",` + cust + `,` + visa + `}`, "cardToken must not be sent with creditCard"},
		{"debit with card", `{"method":"CARD_DEBIT","amount":100,` + cust + `,` + visa + `}`, "creditCard must not be sent with CARD_DEBIT"},
		{"debit with token", `{"method":"CARD_DEBIT","amount":100,"cardToken":"ctk_1",` + cust + `}`, "cardToken must not be sent with CARD_DEBIT"},
		{"debit with holder", `{"method":"CARD_DEBIT","amount":100,"creditCardHolderInfo":{},` + cust + `}`, "creditCardHolderInfo must not be sent with CARD_DEBIT"},
		{"debit", `{"method":"CARD_DEBIT","amount":100,` + cust + `}`, ""},
		{"card on a PIX", `{"method":"PIX","amount":100,` + cust + `,` + visa + `}`, "creditCard is only for CARD_CREDIT and CARD_VOUCHER"},
		{"bad Luhn", `{"method":"CARD_CREDIT","amount":100,` + cust + `,"creditCard":{"holderName":"A","number":"4111111111111112","expiryMonth":"12","expiryYear":"2030","ccv":"123"}}`, "creditCard.number is not a valid card number"},
		{"short number", `{"method":"CARD_CREDIT","amount":100,` + cust + `,"creditCard":{"holderName":"A","number":"4242","expiryMonth":"12","expiryYear":"2030","ccv":"123"}}`, "creditCard.number"},
		{"expired card", `{"method":"CARD_CREDIT","amount":100,` + cust + `,"creditCard":{"holderName":"A","number":"4111111111111111","expiryMonth":"10","expiryYear":"2026","ccv":"123"}}`, "creditCard.expiryYear the card has expired"},
		{"expiring this month", `{"method":"CARD_CREDIT","amount":100,` + cust + `,"creditCard":{"holderName":"A","number":"4111111111111111","expiryMonth":11,"expiryYear":26,"ccv":"123"}}`, ""},
		{"month 13", `{"method":"CARD_CREDIT","amount":100,` + cust + `,"creditCard":{"holderName":"A","number":"4111111111111111","expiryMonth":"13","expiryYear":"2030","ccv":"123"}}`, "creditCard.expiryMonth is not valid"},
		{"bad ccv", `{"method":"CARD_CREDIT","amount":100,` + cust + `,"creditCard":{"holderName":"A","number":"4111111111111111","expiryMonth":"12","expiryYear":"2030","ccv":"12"}}`, "creditCard.ccv must be 3 or 4 digits"},
		{"no holder", `{"method":"CARD_CREDIT","amount":100,` + cust + `,"creditCard":{"number":"4111111111111111","expiryMonth":"12","expiryYear":"2030","ccv":"123"}}`, "creditCard.holderName is required"},
		{"holder info", `{"method":"CARD_CREDIT","amount":100,` + cust + `,` + visa + `,"creditCardHolderInfo":{"name":"Ana","email":"ana@example.com","cpfCnpj":"52998224725","postalCode":"01310-100","addressNumber":"100","phone":"11 98765-4321"}}`, ""},
		{"holder bad CEP", `{"method":"CARD_CREDIT","amount":100,` + cust + `,` + visa + `,"creditCardHolderInfo":{"name":"Ana","email":"ana@example.com","cpfCnpj":"52998224725","postalCode":"0131","addressNumber":"100","phone":"11987654321"}}`, "creditCardHolderInfo.postalCode"},
		{"bad remoteIp", `{"method":"CARD_CREDIT","amount":100,"remoteIp":"not-an-ip",` + cust + `,` + visa + `}`, "remoteIp must be an IP address"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := billingBody(t, tt.body).ValidateAt(billingNow)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(strings.ReplaceAll(err.Error(), ":", ""), tt.wantErr)):
				t.Fatalf("error = %v, want one with %q", err, tt.wantErr)
			}
		})
	}
}

func TestBillingValidateResult(t *testing.T) {
	n, err := billingBody(t, `{"method":"card_credit","amount":100,"installmentCount":3,`+cust+`,`+visa+`}`).ValidateAt(billingNow)
	if err != nil {
		t.Fatal(err)
	}
	if n.Method != domain.MethodCardCredit || n.Amount != 10000 || n.InstallmentCount != 3 || n.Customer.TaxID != "52998224725" {
		t.Errorf("validated = %+v", n)
	}
	// The default due date is today + 3 in São Paulo (the 25th there).
	if got := n.DueDate.Format(time.DateOnly); got != "2026-11-28" {
		t.Errorf("default dueDate = %s, want 2026-11-28", got)
	}
	c := n.Card
	if c == nil || c.Number != "4111111111111111" || c.Brand != "VISA" || c.Last4 != "1111" || c.ExpiryYear != 2030 || c.ExpiryMonth != 12 {
		t.Fatalf("card = %v", c)
	}
	// Nothing that prints or marshals the card shows its number or CVV.
	js, _ := json.Marshal(n)
	for _, s := range []string{fmt.Sprint(n), fmt.Sprintf("%+v", n), fmt.Sprintf("%#v", *c), fmt.Sprintf("%v", *c), string(js)} {
		if strings.Contains(s, "4111111111111111") || strings.Contains(s, "123,") || strings.Contains(s, `"123"`) {
			t.Errorf("card data leaks: %s", s)
		}
	}
}

func TestBillingStatusLabels(t *testing.T) {
	want := map[string]string{
		"PENDING": "Pendente", "CONFIRMED": "Confirmado", "RECEIVED": "Pago", "OVERDUE": "Vencido", "CANCELED": "Cancelado",
		"REFUNDED": "Estornado", "PARTIALLY_REFUNDED": "Estornado parcial", "FAILED": "Falhou",
	}
	if len(billing.BillingStatuses) != len(want) {
		t.Fatalf("%d statuses, the spec has %d", len(billing.BillingStatuses), len(want))
	}
	for _, s := range billing.BillingStatuses {
		if got := billing.BillingStatusLabel(s); got != want[s] {
			t.Errorf("label of %s = %q, want %q", s, got, want[s])
		}
	}
}

func TestBillingPrice(t *testing.T) {
	f := domain.DefaultFees()
	f.BillingNotification = 99
	for _, tt := range []struct {
		method          string
		amount          money.Cents
		fee, notif, net money.Cents
		wantErr         bool
	}{
		{domain.MethodBoleto, 10000, 199, 99, 9702, false},
		{domain.MethodPix, 10000, 50, 99, 9851, false},
		{domain.MethodCardCredit, 10000, 49 + 299, 99, 10000 - 348 - 99, false},
		{domain.MethodCardDebit, 10000, 35 + 189, 99, 10000 - 224 - 99, false},
		{domain.MethodCardVoucher, 10000, 50 + 350, 99, 10000 - 400 - 99, false},
		{domain.MethodBoleto, 298, 0, 0, 0, true}, // fees of 2.98 eat it all
		{domain.MethodBoleto, 299, 199, 99, 1, false},
	} {
		fee, notif, net, err := f.BillingPrice(tt.method, tt.amount)
		if (err != nil) != tt.wantErr || (!tt.wantErr && (fee != tt.fee || notif != tt.notif || net != tt.net)) {
			t.Errorf("%s %s: %s %s %s %v", tt.method, tt.amount, fee, notif, net, err)
		}
	}
}

func TestBillingCreditDates(t *testing.T) {
	paid := time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC)
	for method, days := range map[string]int{domain.MethodBoleto: 1, domain.MethodPix: 1, domain.MethodCardDebit: 1,
		domain.MethodCardCredit: 30, domain.MethodCardVoucher: 30} {
		if got := domain.BillingCreditAt(method, paid); !got.Equal(paid.AddDate(0, 0, days)) {
			t.Errorf("%s credited at %s", method, got)
		}
	}
	// A due date ends at midnight in São Paulo (UTC-3).
	if got := billing.DueEnd(time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)); !got.Equal(time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)) {
		t.Errorf("DueEnd = %s", got)
	}
}

func TestBillingRefundValidate(t *testing.T) {
	for body, wantErr := range map[string]string{
		`{"id":"bil_1"}`:               "",
		`{"id":"bil_1","amount":0.5}`:  "",
		`{"amount":1}`:                 "id is required",
		`{"id":"bil_1","amount":0}`:    "amount must be between",
		`{"id":"bil_1","amount":-1.5}`: "amount must be between",
	} {
		var b billing.BillingRefundRequest
		if err := json.Unmarshal([]byte(body), &b); err != nil {
			t.Fatal(err)
		}
		_, err := b.Validate()
		if (wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), wantErr)) {
			t.Errorf("%s: %v, want %q", body, err, wantErr)
		}
	}
}

func TestTokenizeValidate(t *testing.T) {
	var b billing.TokenizeCardRequest
	if err := json.Unmarshal([]byte(`{"customer":{"id":"cus_1"},`+visa+`}`), &b); err != nil {
		t.Fatal(err)
	}
	n, err := b.ValidateAt(billingNow)
	if err != nil || n.Card.Last4 != "1111" || n.Customer.ID != "cus_1" {
		t.Fatalf("%+v, %v", n, err)
	}
	b.CreditCard = nil
	if _, err := b.ValidateAt(billingNow); err == nil || !strings.Contains(err.Error(), "creditCard") {
		t.Fatalf("no card: %v", err)
	}
}
