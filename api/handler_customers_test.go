package api

import (
	"net/http"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

// Bad customer input is a 400 naming the field, before any use case runs
// (the mocks expect no call).
func TestHandlerCustomerRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, method, path, body, message string
	}{
		{"create without document", "POST", "/v1/customers/create", `{"name":"M","email":"m@example.com"}`, "document is required"},
		{"create with a bad CPF", "POST", "/v1/customers/create", `{"name":"M","email":"m@example.com","document":"529.982.247-24"}`, "document must be a valid CPF or CNPJ"},
		{"create with a bad alphanumeric CNPJ", "POST", "/v1/customers/create", `{"name":"M","email":"m@example.com","document":"12.ABC.345/01DE-36"}`, "document must be a valid CPF or CNPJ"},
		{"create without email", "POST", "/v1/customers/create", `{"name":"M","document":"52998224725"}`, "email is required"},
		{"create with a bad state", "POST", "/v1/customers/create", `{"name":"M","email":"m@example.com","document":"52998224725","state":"ZZ"}`, "state must be a Brazilian state"},
		{"create with a type against the document", "POST", "/v1/customers/create", `{"name":"M","email":"m@example.com","document":"52998224725","type":"PJ"}`, "type PJ does not match"},
		{"update with a bad status", "PATCH", "/v1/customers/update/cus_1", `{"status":"gone"}`, "status must be one of Ativo"},
		{"update with a number as name", "PATCH", "/v1/customers/update/cus_1", `{"name":5}`, "name must be a string"},
		{"list with pageSize over 100", "GET", "/v1/customers/list?pageSize=101", ``, "pageSize must be an integer from 1 to 100"},
		{"list with a bad status", "GET", "/v1/customers/list?status=Suspenso", ``, "status must be one of Ativo"},
		{"list with a bad type", "GET", "/v1/customers/list?type=CPF", ``, "type must be PF or PJ"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("customers/*")
			expectFail(t, f.merchant(c.method, c.path, c.body), http.StatusBadRequest, c.message)
		})
	}
}

func TestHandlerCustomers(t *testing.T) {
	t.Parallel()
	t.Run("create hands the use case the inferred type and shows the record", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("customers/create")
		f.customers.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
			func(_ any, _ domain.Account, p store.CustomerPatch) (store.Customer, error) {
				if *p.Type != store.CustomerPJ || *p.Document != "12ABC34501DE35" || *p.Status != store.CustomerActive {
					t.Errorf("patch %+v: want PJ, the bare document, ACTIVE", p)
				}
				return store.Customer{ID: "cus_1", Name: *p.Name, Document: *p.Document, Type: *p.Type, Status: *p.Status,
					Transactions: 2, Volume: 1050, CreatedAt: routeTime}, nil
			})
		data := expectOK(t, f.merchant("POST", "/v1/customers/create", `{"name":"Firma","email":"f@example.com","document":"12.abc.345/01de-35"}`), "Customer created")
		expectFields(t, data, map[string]string{"id": `"cus_1"`, "type": `"PJ"`, "transactions": `2`, "volume": `10.50`,
			"createdAt": `"2025-01-02T03:04:05.000Z"`})
		for _, internal := range []string{"accountId", "updatedAt", "deletedAt"} {
			if _, present := data[internal]; present {
				t.Errorf("data shows %s", internal)
			}
		}
	})
	t.Run("list reads status in Portuguese, type and search", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("customers/list")
		want := store.CustomerFilter{Page: 2, PageSize: 10, Search: "maria", Status: store.CustomerBlocked, Type: store.CustomerPF}
		f.customers.EXPECT().List(gomock.Any(), gomock.Any(), want).Return([]store.Customer{routeCustomer}, 11, nil)
		data := expectOK(t, f.merchant("GET", "/v1/customers/list?page=2&pageSize=10&search=maria&status=Bloqueado&type=pf", ""), "Customers")
		expectFields(t, data, map[string]string{"total": `11`, "pages": `2`, "page": `2`, "pageSize": `10`})
	})
	t.Run("another account's customer is a 404", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("customers/get")
		f.customers.EXPECT().Get(gomock.Any(), gomock.Any(), "cus_other").Return(store.Customer{}, domain.NotFound("customer"))
		expectFail(t, f.merchant("GET", "/v1/customers/get/cus_other", ""), http.StatusNotFound, "customer not found")
	})
	t.Run("a permission of another group is a 403", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("customers/get")
		expectFail(t, f.merchant("DELETE", "/v1/customers/delete/cus_1", ""), http.StatusForbidden, "")
	})
}
