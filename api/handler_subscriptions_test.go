package api

import (
	"net/http"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
)

// futureDue is a valid first due date: two months from now.
var futureDue = time.Now().AddDate(0, 2, 0).Format(time.DateOnly)

var subscriptionBody = `{"method":"BOLETO","amount":49.90,"cycle":"MONTHLY","nextDueDate":"` + futureDue + `","description":"Plano",` +
	`"customer":{"name":"Maria","taxId":"529.982.247-25"}}`

// Create binds and validates the body into the use case's request (the
// Idempotency-Key included) and answers with the record.
func TestHandlerSubscriptionCreate(t *testing.T) {
	t.Parallel()
	f := newFixture(t).authorized("subscriptions/create")
	rec := billing.SubscriptionRecord{SubscriptionID: "sub_1", ExternalID: "psub_1", Status: billing.SubscriptionActive, Method: "BOLETO",
		Amount: 4990, Cycle: billing.CycleMonthly, NextDueDate: futureDue, CreatedAt: domain.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
		Customer: billing.BillingCustomer{Name: "Maria", TaxID: "52998224725"}, AnchorDate: futureDue, CycleNumber: 1}
	f.subscriptions.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_, _, _ any, in billing.NewSubscription) (billing.SubscriptionRecord, error) {
			if in.Billing.Method != "BOLETO" || in.Billing.Amount != 4990 || in.Cycle != billing.CycleMonthly ||
				in.Billing.DueDate.Format(time.DateOnly) != futureDue || in.Billing.Customer.TaxID != "52998224725" {
				t.Errorf("use case got %+v", in)
			}
			return rec, nil
		})
	data := expectOK(t, f.merchant(http.MethodPost, "/v1/subscriptions/create", subscriptionBody), "Subscription created")
	expectFields(t, data, map[string]string{"subscriptionId": `"sub_1"`, "externalId": `"psub_1"`, "status": `"ACTIVE"`,
		"method": `"BOLETO"`, "amount": `49.90`, "cycle": `"MONTHLY"`, "nextDueDate": `"` + futureDue + `"`, "createdAt": `"2026-01-01T00:00:00.000Z"`})
	if _, ok := data["customer"]; !ok {
		t.Error("no customer")
	}
}

// Bad bodies are 400s naming the field, and reach no use case.
func TestHandlerSubscriptionCreateRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, body, message string }{
		{"not an object", `[1]`, "request body must be a JSON object"},
		{"amount as text", `{"method":"PIX","amount":"10","cycle":"MONTHLY"}`, "amount must be a number"},
		{"unknown cycle", `{"method":"PIX","amount":10,"cycle":"DAILY","nextDueDate":"` + futureDue + `","customer":{"name":"M","taxId":"52998224725"}}`, "cycle must be one of"},
		{"card debit", `{"method":"CARD_DEBIT","amount":10,"cycle":"MONTHLY"}`, "method must be one of BOLETO, CARD_CREDIT, PIX"},
		{"past date", `{"method":"PIX","amount":10,"cycle":"WEEKLY","nextDueDate":"2020-01-01","customer":{"name":"M","taxId":"52998224725"}}`, "nextDueDate must not be in the past"},
		{"bad cnpj", `{"method":"PIX","amount":10,"cycle":"WEEKLY","nextDueDate":"` + futureDue + `","customer":{"name":"M","taxId":"11222333000180"}}`, "customer.taxId must be a valid CPF or CNPJ"},
		{"card without card", `{"method":"CARD_CREDIT","amount":10,"cycle":"WEEKLY","nextDueDate":"` + futureDue + `","customer":{"name":"M","taxId":"52998224725"}}`, "creditCard or cardToken is required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("subscriptions/create")
			expectFail(t, f.merchant(http.MethodPost, "/v1/subscriptions/create", c.body), http.StatusBadRequest, c.message)
		})
	}
}

// The list filters by status (case-insensitive), pages, and refuses an
// unknown status.
func TestHandlerSubscriptionList(t *testing.T) {
	t.Parallel()
	f := newFixture(t).authorized("subscriptions/list")
	f.subscriptions.EXPECT().List(gomock.Any(), gomock.Any(), billing.SubscriptionCanceled, 2, 10).
		Return([]billing.Subscription{{ID: "sub_1", Status: billing.SubscriptionCanceled, NextDueDate: "2099-01-31"}}, 11, nil)
	data := expectOK(t, f.merchant(http.MethodGet, "/v1/subscriptions/list?status=canceled&page=2&pageSize=10", ""), "Subscriptions")
	expectFields(t, data, map[string]string{"page": `2`, "pageSize": `10`, "total": `11`, "pages": `2`})
	expectFail(t, f.merchant(http.MethodGet, "/v1/subscriptions/list?status=PAUSED", ""), http.StatusBadRequest, "status must be ACTIVE or CANCELED")
	expectFail(t, f.merchant(http.MethodGet, "/v1/subscriptions/list?pageSize=101", ""), http.StatusBadRequest, "pageSize")
}

// Another account's subscription (or none) is a 404; a canceled one's
// cancel is a 400; without the permission, a 403.
func TestHandlerSubscriptionErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t).authorized("subscriptions/get", "subscriptions/cancel")
	f.subscriptions.EXPECT().Get(gomock.Any(), gomock.Any(), "sub_other").Return(billing.SubscriptionRecord{}, domain.NotFound("subscription"))
	expectFail(t, f.merchant(http.MethodGet, "/v1/subscriptions/get/sub_other", ""), http.StatusNotFound, "subscription not found")
	f.subscriptions.EXPECT().Cancel(gomock.Any(), gomock.Any(), "sub_1").Return(billing.SubscriptionRecord{}, domain.Invalidf("subscription sub_1 is canceled already"))
	expectFail(t, f.merchant(http.MethodPost, "/v1/subscriptions/cancel/sub_1", ""), http.StatusBadRequest, "subscription sub_1 is canceled already")
	expectFail(t, f.merchant(http.MethodGet, "/v1/subscriptions/list", ""), http.StatusForbidden, "")
}
