package api

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

func TestHandlerPaymentLinkCreate(t *testing.T) {
	t.Parallel()
	const path = "/v1/payment-links/create"
	refusals := []struct{ name, body, message string }{
		{"no name", `{"fixedAmount":10}`, "name is required"},
		{"empty name", `{"name":"  "}`, "name must have at most 120 characters and not be empty"},
		{"unknown method", `{"name":"Curso","allowedMethods":["BOLETO"]}`, "allowedMethods must list PIX, CRYPTO or both"},
		{"no method", `{"name":"Curso","allowedMethods":[]}`, "allowedMethods must list PIX, CRYPTO or both"},
		{"amount below a PIX charge's", `{"name":"Curso","fixedAmount":0.5}`, "fixedAmount must be between 1.00 and 1000000.00"},
		{"amount with three decimals", `{"name":"Curso","fixedAmount":1.005}`, "fixedAmount "},
		{"unknown customer mode", `{"name":"Curso","customerMode":"SOMETIMES"}`, "customerMode must be NONE, OPTIONAL or REQUIRED"},
		{"unknown status", `{"name":"Curso","status":"PAUSED"}`, "status must be ACTIVE or INACTIVE"},
		{"empty product id", `{"name":"Curso","productIds":[""]}`, "productIds must list product ids"},
		{"products as a string", `{"name":"Curso","productIds":"prod_1"}`, "productIds must be a list of string"},
	}
	for _, tc := range refusals {
		t.Run(tc.name+" → 400", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("payment-links/create")
			expectFail(t, f.merchant("POST", path, tc.body), http.StatusBadRequest, tc.message)
		})
	}

	t.Run("valid body → defaults filled, payPageUrl absolute", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("payment-links/create")
		f.links.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
			DoAndReturn(func(_ context.Context, acct domain.Account, key domain.APIKey, p checkout.LinkPatch) (service.PaymentLink, error) {
				if acct.ID != testAccountID || key.ID != testKeyID {
					t.Errorf("caller %s/%s", acct.ID, key.ID)
				}
				if *p.Name != "Curso" || *p.CustomerMode != checkout.CustomerNone || *p.Status != checkout.LinkActive ||
					len(p.AllowedMethods) != 2 || p.AllowedMethods[0] != domain.MethodPix || p.FixedAmount != nil || len(p.ProductIDs) != 1 {
					t.Errorf("patch %+v", p)
				}
				return service.PaymentLink{ID: "plink_9", Name: *p.Name, AllowedMethods: p.AllowedMethods, ProductIDs: p.ProductIDs,
					CustomerMode: *p.CustomerMode, Status: *p.Status}, nil
			})
		data := expectOK(t, f.merchant("POST", path, `{"name":" Curso ","allowedMethods":["pix","CRYPTO","PIX"],"productIds":["prod_1","prod_1"]}`), "Payment link created")
		expectFields(t, data, map[string]string{"id": `"plink_9"`, "allowedMethods": `["PIX","CRYPTO"]`, "customerMode": `"NONE"`,
			"payPageUrl": `"` + testConfig().PublicURL + `/pay/plink_9"`})
		expectAbsent(t, data, "fixedAmount", "accountId")
	})
}

func TestHandlerPaymentLinkUpdateAndStatus(t *testing.T) {
	t.Parallel()
	t.Run("update sends only the fields given", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("payment-links/update")
		f.links.EXPECT().Update(gomock.Any(), gomock.Any(), "plink_1", gomock.Any()).
			DoAndReturn(func(_ context.Context, _ domain.Account, _ string, p checkout.LinkPatch) (service.PaymentLink, error) {
				if p.Name != nil || p.Status != nil || p.FixedAmount == nil || *p.FixedAmount != money.Cents(2550) {
					t.Errorf("patch %+v", p)
				}
				return routeLink, nil
			})
		expectOK(t, f.merchant("PATCH", "/v1/payment-links/update/plink_1", `{"fixedAmount":25.50}`), "Payment link updated")
	})
	t.Run("update with a bad field → 400", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("payment-links/update")
		expectFail(t, f.merchant("PATCH", "/v1/payment-links/update/plink_1", `{"name":"`+strings.Repeat("n", 121)+`"}`),
			http.StatusBadRequest, "name must have at most 120 characters")
	})
	t.Run("status without a status → 400", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("payment-links/update")
		expectFail(t, f.merchant("PATCH", "/v1/payment-links/status/plink_1", `{}`), http.StatusBadRequest, "status is required")
	})
	t.Run("another account's link → 404", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("payment-links/get")
		f.links.EXPECT().Get(gomock.Any(), gomock.Any(), "plink_x").Return(service.PaymentLink{}, domain.NotFound("payment link"))
		expectFail(t, f.merchant("GET", "/v1/payment-links/get/plink_x", ""), http.StatusNotFound, "payment link not found")
	})
	t.Run("list with a bad status or pageSize → 400", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("payment-links/list")
		expectFail(t, f.merchant("GET", "/v1/payment-links/list?status=PAID", ""), http.StatusBadRequest, "status must be ACTIVE or INACTIVE")
		expectFail(t, f.merchant("GET", "/v1/payment-links/list?pageSize=101", ""), http.StatusBadRequest, "pageSize must be an integer from 1 to 100")
	})
	t.Run("no permission → 403", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("payment-links/get")
		expectFail(t, f.merchant("DELETE", "/v1/payment-links/delete/plink_1", ""), http.StatusForbidden, "")
	})
}
