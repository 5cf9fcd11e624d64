package api

import (
	"net/http"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

// Bad product input is a 400 naming the field, before any use case runs.
func TestHandlerProductRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, method, path, body, message string
	}{
		{"create without name", "POST", "/v1/products/create", `{"sku":"A"}`, "name is required"},
		{"price with three decimals", "POST", "/v1/products/create", `{"name":"C","price":1.001}`, "price must be a number with at most two decimal places"},
		{"price as a string", "POST", "/v1/products/create", `{"name":"C","price":"10"}`, "price must be a number, not a string"},
		{"unknown delivery type", "POST", "/v1/products/create", `{"name":"C","deliveries":[{"type":"FILE"}]}`, "deliveries[0].type must be LINK, TEXT_INFINITE or TEXT_LINES"},
		{"relative redirect", "PATCH", "/v1/products/update/prod_1", `{"deliveries":[{"type":"LINK","redirectUrl":"/x"}]}`, "deliveries[0].redirectUrl must be an absolute http(s) URL"},
		{"deliveries not a list", "PATCH", "/v1/products/update/prod_1", `{"deliveries":{"type":"LINK"}}`, "deliveries must be a list"},
		{"list with pageSize over 100", "GET", "/v1/products/list?pageSize=500", ``, "pageSize must be an integer from 1 to 100"},
		{"list with a bad status", "GET", "/v1/products/list?status=DRAFT", ``, "status must be ACTIVE or INACTIVE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("products/*")
			expectFail(t, f.merchant(c.method, c.path, c.body), http.StatusBadRequest, c.message)
		})
	}
}

func TestHandlerProducts(t *testing.T) {
	t.Parallel()
	t.Run("create hands over the lines and shows counts, not lines", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("products/create")
		f.products.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
			func(_ any, _ domain.Account, p store.ProductPatch) (store.Product, error) {
				if p.Lines == nil || len(*p.Lines) != 2 || *p.Price != 4990 {
					t.Errorf("patch %+v: want two lines and price 4990", p)
				}
				return store.Product{ID: "prod_1", Name: *p.Name, Price: p.Price, Status: *p.Status, Deliveries: *p.Deliveries,
					LinesAvailable: 2, CreatedAt: routeTime}, nil
			})
		data := expectOK(t, f.merchant("POST", "/v1/products/create",
			`{"name":"Licença","price":49.9,"deliveries":[{"type":"TEXT_LINES","linesText":"K1\nK2"}]}`), "Product created")
		expectFields(t, data, map[string]string{"id": `"prod_1"`, "price": `49.90`, "status": `"ACTIVE"`, "sku": `null`,
			"deliveries": `[{"type":"TEXT_LINES","linesAvailable":2,"linesDelivered":0}]`})
		if _, present := data["accountId"]; present {
			t.Error("data shows accountId")
		}
	})
	t.Run("list reads search and status", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("products/list")
		f.products.EXPECT().List(gomock.Any(), gomock.Any(), store.ProductFilter{Page: 1, PageSize: 20, Search: "curso", Status: "INACTIVE"}).
			Return([]store.Product{routeProduct}, 1, nil)
		expectOK(t, f.merchant("GET", "/v1/products/list?pageSize=20&search=curso&status=inactive", ""), "Products")
	})
	t.Run("a taken sku is a 400 naming sku", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("products/update")
		f.products.EXPECT().Update(gomock.Any(), gomock.Any(), "prod_1", gomock.Any()).
			Return(store.Product{}, domain.Invalid("sku", "is already used by another product of this account"))
		expectFail(t, f.merchant("PATCH", "/v1/products/update/prod_1", `{"sku":"A"}`), http.StatusBadRequest, "sku is already used")
	})
	t.Run("another account's product is a 404", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("products/delete")
		f.products.EXPECT().Delete(gomock.Any(), gomock.Any(), "prod_x").Return(domain.NotFound("product"))
		expectFail(t, f.merchant("DELETE", "/v1/products/delete/prod_x", ""), http.StatusNotFound, "product not found")
	})
}
