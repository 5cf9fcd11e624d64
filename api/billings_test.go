package api

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/boleto"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/service"
)

// Bad bodies are 400s naming the field, before any use case is called (the
// mocks expect no call).
func TestBillingCreateBadInput(t *testing.T) {
	t.Parallel()
	cust := `"customer":{"name":"Ana","taxId":"52998224725"}`
	for body, want := range map[string]string{
		`{"method":"CHEQUE","amount":10,` + cust + `}`:                                                "method",
		`{"method":"PIX","amount":0,` + cust + `}`:                                                    "amount",
		`{"method":"PIX","amount":"10",` + cust + `}`:                                                 "amount",
		`{"method":"PIX","amount":10.001,` + cust + `}`:                                               "amount",
		`{"method":"PIX","amount":10}`:                                                                "customer",
		`{"method":"PIX","amount":10,"customer":{"name":"A","taxId":"123"}}`:                          "customer.taxId",
		`{"method":"BOLETO","amount":10,"dueDate":"2020-01-01",` + cust + `}`:                         "dueDate",
		`{"method":"BOLETO","amount":10,"dueDate":"amanhã",` + cust + `}`:                             "dueDate",
		`{"method":"CARD_CREDIT","amount":10,"installmentCount":22,"cardToken":"ctk_1",` + cust + `}`: "installmentCount",
		`{"method":"CARD_DEBIT","amount":10,"cardToken":"ctk_1",` + cust + `}`:                        "cardToken",
		`{"method":"CARD_CREDIT","amount":10,` + cust + `,"creditCard":{"holderName":"A","number":"4111111111111112","expiryMonth":"12","expiryYear":"2099","ccv":"123"}}`: "creditCard.number",
		`{"method":"CARD_CREDIT","amount":10,` + cust + `,"creditCard":{"holderName":"A","number":"4111111111111111","expiryMonth":"01","expiryYear":"2001","ccv":"123"}}`: "creditCard.expiryYear",
	} {
		f := newFixture(t).authorized("billings/create")
		expectFail(t, f.merchant("POST", "/v1/billings/create", body), http.StatusBadRequest, want)
	}
}

func TestBillingCreateAnswersTheRecord(t *testing.T) {
	t.Parallel()
	f := newFixture(t).authorized("billings/create")
	b := routeBilling
	b.Details = domain.SomeJSON(billing.BillingDetails{DigitableLine: strings.Repeat("1", 47)})
	f.billings.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_ any, _ domain.Account, _ domain.APIKey, in billing.NewBilling) (service.CreatedBilling, error) {
			if in.Method != domain.MethodBoleto || in.Amount != 1000 || in.RemoteIP == "" {
				t.Errorf("use case got %+v", in)
			}
			return service.CreatedBilling{Billing: b}, nil
		})
	data := expectOK(t, f.merchant("POST", "/v1/billings/create", `{"billingType":"BOLETO","amount":10,"customer":{"name":"Ana","taxId":"52998224725"}}`), "Billing created")
	expectFields(t, data, map[string]string{
		"id": `"bil_1"`, "status": `"PENDING"`, "statusLabel": `"Pendente"`, "method": `"BOLETO"`, "amount": `10.00`,
		"dueDate": `"2025-01-02"`, "bankSlipUrl": `"` + testConfig().PublicURL + `/billings/slip/tok"`,
	})
}

func TestBillingRoutesNeedTheirPermissions(t *testing.T) {
	t.Parallel()
	for _, r := range [][2]string{{"POST", "/v1/billings/create"}, {"POST", "/v1/billings/tokenize-card"}, {"GET", "/v1/billings/get/bil_1"},
		{"GET", "/v1/billings/list"}, {"POST", "/v1/billings/refund"}} {
		f := newFixture(t).authorized("payment-pix/create")
		expectFail(t, f.merchant(r[0], r[1], `{}`), http.StatusForbidden, "")
	}
}

func TestBillingGetAnotherAccountsIsNotFound(t *testing.T) {
	t.Parallel()
	f := newFixture(t).authorized("billings/get")
	f.billings.EXPECT().Get(gomock.Any(), gomock.Any(), "bil_other").Return(service.CreatedBilling{}, domain.ErrNotFound)
	expectFail(t, f.merchant("GET", "/v1/billings/get/bil_other", ""), http.StatusNotFound, "")
}

func TestBillingListFilters(t *testing.T) {
	t.Parallel()
	f := newFixture(t).authorized("billings/list")
	f.billings.EXPECT().List(gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_ any, _ domain.Account, got service.BillingFilter) ([]billing.Billing, int, error) {
			if got.Page != 2 || got.PageSize != 10 || got.Status != "OVERDUE" || got.Method != "PIX" || got.CustomerID != "cus_1" ||
				got.ExternalReference != "ref" || got.DateFrom == nil || got.DateTo == nil {
				t.Errorf("filter = %+v", got)
			}
			return nil, 0, nil
		})
	expectOK(t, f.merchant("GET", "/v1/billings/list?page=2&pageSize=10&status=overdue&method=pix&customerId=cus_1&externalReference=ref&dateFrom=2026-01-01&dateTo=2026-02-01", ""), "Billings")
	for _, q := range []string{"status=PAID", "method=CHEQUE", "pageSize=101", "dateFrom=ontem"} {
		g := newFixture(t).authorized("billings/list")
		expectFail(t, g.merchant("GET", "/v1/billings/list?"+q, ""), http.StatusBadRequest, "")
	}
}

func TestBillingRefundBadInputAndAboveWhatIsLeft(t *testing.T) {
	t.Parallel()
	f := newFixture(t).authorized("billings/refund")
	expectFail(t, f.merchant("POST", "/v1/billings/refund", `{"amount":1}`), http.StatusBadRequest, "id")
	f.billings.EXPECT().Refund(gomock.Any(), gomock.Any(), gomock.Any()).Return(billing.Billing{}, domain.Invalid("amount", "must not exceed what is left to refund, 5.00"))
	expectFail(t, f.merchant("POST", "/v1/billings/refund", `{"id":"bil_1","amount":6}`), http.StatusBadRequest, "amount")
}

func TestBillingSlipIsAPrintablePageWithTheBarcode(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	due := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	bol, err := boleto.New("999", due, 1234, strings.Repeat("7", 25))
	if err != nil {
		t.Fatal(err)
	}
	b := routeBilling
	b.DueDate, b.Amount = due, 1234
	b.Details = domain.SomeJSON(billing.BillingDetails{Barcode: bol.Barcode, DigitableLine: bol.DigitableLine})
	f.billings.EXPECT().Page(gomock.Any(), "tok").Return(service.CreatedBilling{Billing: b}, nil)
	w := f.serve("GET", "/billings/slip/tok", "")
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("slip = %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	page := w.Body.String()
	for _, want := range []string{boleto.Format(bol.DigitableLine), `data-barcode="` + bol.Barcode + `"`, "<svg", "R$ 12,34", "01/12/2026", `lang="pt-BR"`, `src="/pay/assets/slip.js"`} {
		if !strings.Contains(page, want) {
			t.Errorf("slip lacks %q", want)
		}
	}
	// An unknown token, or a billing of another method, is not found.
	g := newFixture(t)
	g.billings.EXPECT().Page(gomock.Any(), "nope").Return(service.CreatedBilling{}, domain.ErrNotFound)
	if w := g.serve("GET", "/billings/slip/nope", ""); w.Code != http.StatusNotFound {
		t.Errorf("unknown token = %d", w.Code)
	}
	h := newFixture(t)
	h.billings.EXPECT().Page(gomock.Any(), "tok").Return(service.CreatedBilling{Billing: b}, nil)
	if w := h.serve("GET", "/billings/invoice/tok", ""); w.Code != http.StatusNotFound {
		t.Errorf("a boleto's invoice page = %d", w.Code)
	}
}
