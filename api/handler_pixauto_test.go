package api

import (
	"net/http"
	"testing"
)

// PIX automatic's bodies are validated before the use case is called: each
// bad field is a 400 naming it (the mocks expect no call).
func TestHandlerPixAutomaticBadInput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, path, body, field string }{
		{"no customer", "/v1/pix-automatic/authorizations/create", `{"description":"x","frequency":"MONTHLY","fixedAmount":1,"startDate":"2099-01-01"}`, "customerId"},
		{"frequency", "/v1/pix-automatic/authorizations/create", `{"customerId":"c","description":"x","frequency":"DAILY","fixedAmount":1,"startDate":"2099-01-01"}`, "frequency"},
		{"both amounts", "/v1/pix-automatic/authorizations/create", `{"customerId":"c","description":"x","frequency":"WEEKLY","fixedAmount":1,"maxAmount":2,"startDate":"2099-01-01"}`, "fixedAmount"},
		{"amount type", "/v1/pix-automatic/authorizations/create", `{"customerId":"c","description":"x","frequency":"WEEKLY","maxAmount":"lots","startDate":"2099-01-01"}`, "maxAmount"},
		{"start date", "/v1/pix-automatic/authorizations/create", `{"customerId":"c","description":"x","frequency":"WEEKLY","maxAmount":2,"startDate":"01/01/2099"}`, "startDate"},
		{"end before start", "/v1/pix-automatic/authorizations/create", `{"customerId":"c","description":"x","frequency":"WEEKLY","maxAmount":2,"startDate":"2099-01-02","endDate":"2099-01-01"}`, "endDate"},
		{"instruction amount", "/v1/pix-automatic/payment-instructions/create", `{"authorizationId":"pa_1","amount":0,"dueDate":"2099-01-01"}`, "amount"},
		{"instruction due date", "/v1/pix-automatic/payment-instructions/create", `{"authorizationId":"pa_1","amount":1,"dueDate":"tomorrow"}`, "dueDate"},
		{"instruction authorization", "/v1/pix-automatic/payment-instructions/create", `{"amount":1,"dueDate":"2099-01-01"}`, "authorizationId"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).withAllFeatures("*")
			expectFail(t, f.merchant("POST", c.path, c.body), http.StatusBadRequest, c.field+" ")
		})
	}
}
