package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
)

// withSubaccounts makes testSecret a key holding perms, of an account with
// the sub-account feature on.
func (f *fixture) withSubaccounts(perms ...string) *fixture {
	acct := testAccount()
	acct.Features.Subaccounts = true
	f.auth.EXPECT().Resolve(gomock.Any(), testSecret).Return(testKey(perms...), acct, nil).AnyTimes()
	return f
}

func TestHandlerSubaccountsFeatureOff(t *testing.T) {
	t.Parallel()
	for _, r := range Routes() {
		if r.Feature == "" || (domain.Features{}).Enabled(r.Feature) { // a feature always on has no off
			continue
		}
		t.Run(r.Method+" "+r.Path, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("*") // no expectation on the use case: it must not be called
			path := "/v1" + strings.NewReplacer(":id", "sub_1", ":ref", "r1").Replace(r.Path)
			// Every gated route (sub-accounts, PIX automatic, …) names its own feature.
			expectFail(t, f.merchant(r.Method, path, `{}`), http.StatusForbidden, "the feature "+r.Feature+" is not enabled")
		})
	}
}

func TestHandlerSubaccountRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, method, path, body, message string
	}{
		{"create without cpf", "POST", "/v1/subaccount/create", `{"fullName":"A","birthDate":"1990-01-01","postalCode":"01310100","externalReference":"r"}`, "cpf is required"},
		{"create with a bad CEP", "POST", "/v1/subaccount/create", `{"fullName":"A","cpf":"52998224725","birthDate":"1990-01-01","postalCode":"1","externalReference":"r"}`, "postalCode must be a CEP of 8 digits"},
		{"add without reference", "POST", "/v1/subaccount/add-balance", `{"id":"sub_1","amount":1}`, "externalReference is required"},
		{"add with three decimals", "POST", "/v1/subaccount/add-balance", `{"id":"sub_1","amount":1.001,"externalReference":"r"}`, "amount must be a number with at most two decimal places"},
		{"transfer to itself", "POST", "/v1/subaccount/transfer", `{"fromSubaccountId":"a","toSubaccountId":"a","amount":1,"externalReference":"r"}`, "toSubaccountId must differ"},
		{"lock with a bad mode", "POST", "/v1/subaccount/lock", `{"id":"sub_1","mode":"half"}`, "mode must be full, withdraw_only or deposit_only"},
		{"update with a bad status", "POST", "/v1/subaccount/update", `{"id":"sub_1","status":"LOCKED"}`, "status must be ACTIVE or DISABLED"},
		{"limit as a string", "POST", "/v1/subaccount/set-limits", `{"id":"sub_1","daily":"10"}`, "daily must be a number"},
		{"pricing at 100%", "POST", "/v1/subaccount/set-pricing", `{"id":"sub_1","pixInPercent":100}`, "pixInPercent"},
		{"balance without id", "GET", "/v1/subaccount/balance", ``, "id or externalReference is required"},
		{"list with a bad status", "GET", "/v1/subaccount/list?status=X", ``, "status must be ACTIVE or DISABLED"},
		{"weak portal password", "POST", "/v1/subaccount/portal/setup", `{"id":"sub_1","email":"a@b.co","password":"weakpass"}`, "password must contain"},
		{"portal revoke without id", "POST", "/v1/subaccount/portal/revoke", `{}`, "id or externalReference is required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).withSubaccounts("subaccount/*")
			expectFail(t, f.merchant(c.method, c.path, c.body), http.StatusBadRequest, c.message)
		})
	}
}

func TestHandlerSubaccountMovesAndErrors(t *testing.T) {
	t.Parallel()
	t.Run("add-balance → the move record", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).withSubaccounts("subaccount/add-balance")
		f.subs.EXPECT().AddBalance(gomock.Any(), gomock.Any(), gomock.Any(), subaccount.Move{From: "sub_1", To: "sub_1", Amount: 1050, ExternalReference: "r1"}).
			DoAndReturn(func(_ context.Context, acct domain.Account, _ domain.APIKey, m subaccount.Move) (domain.Transaction, error) {
				return domain.Transaction{ID: "t1", Type: subaccount.TypeAddBalance, Status: domain.StatusCompleted, Amount: m.Amount, SubaccountID: &m.To}, nil
			})
		data := expectOK(t, f.merchant("POST", "/v1/subaccount/add-balance", `{"id":"sub_1","amount":10.5,"externalReference":"r1"}`), "Balance added to the sub-account")
		expectFields(t, data, map[string]string{"id": `"t1"`, "type": `"SUBACCOUNT_ADD_BALANCE"`, "amount": `10.50`, "subaccountId": `"sub_1"`})
	})
	mapped := []struct {
		err    error
		status int
	}{
		{domain.Insufficient("insufficient balance"), http.StatusBadRequest},
		{domain.NotFound("sub-account"), http.StatusNotFound},
		{domain.Invalidf("sub-account sub_1 is locked (full): remove-balance is refused"), http.StatusBadRequest},
		{errors.New("boom"), http.StatusInternalServerError},
	}
	for _, m := range mapped {
		t.Run("remove-balance: "+m.err.Error(), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).withSubaccounts("subaccount/remove-balance")
			f.subs.EXPECT().RemoveBalance(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(domain.Transaction{}, m.err)
			w := f.merchant("POST", "/v1/subaccount/remove-balance", `{"id":"sub_1","amount":1,"externalReference":"r"}`)
			if w.Code != m.status {
				t.Fatalf("%v → %d, want %d", m.err, w.Code, m.status)
			}
		})
	}
	t.Run("set-limits: null and absent remove a limit", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).withSubaccounts("subaccount/set-limits")
		daily := money.Cents(1000)
		f.subs.EXPECT().SetLimits(gomock.Any(), gomock.Any(), subaccount.SetLimits{ID: "sub_1", Limits: subaccount.Limits{Daily: &daily}}).
			Return(subaccount.View{ID: "sub_1", Limits: subaccount.Limits{Daily: &daily}}, nil)
		data := expectOK(t, f.merchant("POST", "/v1/subaccount/set-limits", `{"id":"sub_1","daily":10,"monthly":null}`), "Sub-account limits set")
		expectFields(t, data, map[string]string{"limits": `{"daily":10.00,"monthly":null,"perTransaction":null}`})
	})
	t.Run("get-by-ref: the lean shape", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).withSubaccounts("subaccount/get")
		f.subs.EXPECT().Get(gomock.Any(), gomock.Any(), "shop-7").Return(subaccount.Subaccount{ID: "sub_1", Name: "Loja", ExternalReference: "shop-7",
			Status: "ACTIVE", LockMode: "NONE", CPF: "52998224725"}, subaccount.Balance{SpendablePadrao: 500, AvailablePadrao: 700}, nil)
		data := expectOK(t, f.merchant("GET", "/v1/subaccount/get-by-ref/shop-7", ""), "Sub-account")
		expectFields(t, data, map[string]string{"id": `"sub_1"`, "balance": `{"spendablePadrao":5.00}`, "lockMode": `"NONE"`})
		expectAbsent(t, data, "cpf", "limits", "pricing")
	})
	t.Run("portal setup answers portal_ready", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).withSubaccounts("subaccount/portal/setup")
		f.subs.EXPECT().PortalSetup(gomock.Any(), gomock.Any(), subaccount.PortalSetup{Ref: "shop-7", Email: "a@b.co", Password: "Str0ng!pw"}).Return(nil)
		data := expectOK(t, f.merchant("POST", "/v1/subaccount/portal/setup", `{"externalReference":"shop-7","email":"A@B.co","password":"Str0ng!pw"}`), "Portal ready")
		expectFields(t, data, map[string]string{"success": `true`, "mode": `"portal_ready"`})
	})
	t.Run("portal status of one: data is the record", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).withSubaccounts("subaccount/portal/get")
		f.subs.EXPECT().PortalStatus(gomock.Any(), gomock.Any(), "shop-7").
			Return(subaccount.PortalItem{SubaccountID: "sub_1", SubaccountName: "Loja", Portal: subaccount.PortalView{State: "active"}}, nil)
		data := expectOK(t, f.merchant("GET", "/v1/subaccount/portal/status?externalReference=shop-7", ""), "Portal status")
		expectFields(t, data, map[string]string{"subaccountId": `"sub_1"`, "subaccountName": `"Loja"`})
		expectAbsent(t, data, "items")
	})
	t.Run("portal status of all: data is the list envelope", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).withSubaccounts("subaccount/portal/get")
		f.subs.EXPECT().ListPortals(gomock.Any(), gomock.Any(), 2, 1).
			Return([]subaccount.PortalItem{{SubaccountID: "sub_2", Portal: subaccount.PortalView{State: "none"}}}, 3, nil)
		data := expectOK(t, f.merchant("GET", "/v1/subaccount/portal/status?page=2&pageSize=1", ""), "Portal status")
		expectFields(t, data, map[string]string{"page": `2`, "pageSize": `1`, "total": `3`, "pages": `3`})
		if !strings.Contains(string(data["items"]), `"subaccountId":"sub_2"`) {
			t.Errorf("items %s", data["items"])
		}
	})
}
