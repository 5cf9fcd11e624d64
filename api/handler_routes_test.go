package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/dashboard"
	"github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/service"
)

// routeCase is one route's handler test through the generated mocks: the
// request, the use case it must call (expect), and the success message.
type routeCase struct {
	path, body, message string
	// expect sets the mocks: the one use case the handler calls, once.
	expect func(f *fixture)
}

// A record of each kind the mocks answer with.
var (
	routeTime = domain.NewTime(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	routeTx   = domain.Transaction{ID: "tx_1", AccountID: testAccountID, Type: domain.TypePixIn,
		Status: domain.StatusPending, Amount: 1000, NetAmount: 1000, CreatedAt: routeTime}
	routeEndpoint = service.WebhookEndpoint{ID: "whe_1", AccountID: testAccountID, URL: "https://hooks.example.com/j",
		Status: domain.EndpointActive, CreatedAt: routeTime}
	routeSub = subaccount.View{ID: "sub_1"}
	routeSim = service.Simulated{ID: "tx_1", Outcome: "paid"}
	// routeBilling is a billing (billings).
	routeBilling = billing.Billing{ID: "bil_1", AccountID: testAccountID, Method: domain.MethodBoleto, Status: billing.BillingPending,
		Amount: 1000, DueDate: routeTime.Time, CreatedAt: routeTime, PageToken: "tok"}
	// routeLink is a payment link.
	routeLink = service.PaymentLink{ID: "plink_1", AccountID: testAccountID, Name: "Curso", AllowedMethods: []string{"PIX"},
		CustomerMode: checkout.CustomerNone, Status: checkout.LinkActive, CreatedAt: routeTime}
	// Store: customers, products, coupons.
	routeCustomer = store.Customer{ID: "cus_1", Name: "Maria Silva", Document: "52998224725", Type: store.CustomerPF,
		Status: store.CustomerActive, CreatedAt: routeTime}
	routeSession = checkout.CheckoutSession{ID: "cs_1", AccountID: testAccountID, LinkID: "plink_1", Status: checkout.SessionOpen,
		Method: domain.MethodPix, OriginalAmount: 1000, Amount: 1000, TransactionID: "tx_1", CreatedAt: routeTime}
	routeProduct = store.Product{ID: "prod_1", Name: "Curso", Status: store.ProductActive,
		Deliveries: store.Deliveries{{Type: store.DeliveryLink, RedirectURL: "https://example.com/c"}}, CreatedAt: routeTime}
	routeCoupon = store.Coupon{ID: "cpn_1", Code: "PROMO10", DiscountType: store.CouponPercent, DiscountValue: 1000,
		Status: store.CouponActive, CreatedAt: routeTime}
	routeMED = domain.Transaction{ID: "med_1", AccountID: testAccountID, Type: domain.TypeMED, Status: med.MedOpen, Amount: 1000,
		CreatedAt: routeTime, Details: domain.SomeJSON(domain.Details{Med: &domain.MedBlock{DepositID: "tx_1", Blocked: 1000}})}
)

// adminRouteCases is routeCases for adminRoutes() (paths under /admin/v1).
var adminRouteCases = map[string]routeCase{
	"POST /accounts": {"/admin/v1/accounts", `{"name":"Loja","email":"loja@example.com","document":"52998224725"}`, "Account created", func(f *fixture) {
		f.accounts.EXPECT().Create(gomock.Any(), gomock.Any()).Return(testAccount(), nil)
	}},
	// Profiles need no use case: a profile index is the whole answer.
	"GET /debug/pprof/*name": {"/admin/v1/debug/pprof/", "", "", func(*fixture) {}},
	// Tools: the account list passes page and search through.
	"GET /accounts": {"/admin/v1/accounts?search=loja&page=2&pageSize=5", "", "Accounts", func(f *fixture) {
		f.accounts.EXPECT().List(gomock.Any(), "loja", 2, 5).Return([]domain.Account{testAccount()}, 6, nil)
	}},
	"GET /accounts/:id": {"/admin/v1/accounts/acc_1", "", "Account", func(f *fixture) {
		f.accounts.EXPECT().Get(gomock.Any(), "acc_1").Return(testAccount(), nil)
	}},
	"PATCH /accounts/:id": {"/admin/v1/accounts/acc_1", `{"verified":true}`, "Account updated", func(f *fixture) {
		f.accounts.EXPECT().Patch(gomock.Any(), "acc_1", gomock.Any()).
			DoAndReturn(func(_ context.Context, _ string, merge func(domain.Account) (service.AccountPatch, error)) (domain.Account, error) {
				p, err := merge(testAccount())
				if err != nil || p.Verified == nil || !*p.Verified {
					f.t.Errorf("merge = %+v, %v; want verified true", p, err)
				}
				return testAccount(), nil
			})
	}},
	"POST /accounts/:id/keys": {"/admin/v1/accounts/acc_1/keys", `{"name":"loja","permissions":["*"]}`, "API key created; the key is shown only now", func(f *fixture) {
		f.accounts.EXPECT().CreateKey(gomock.Any(), "acc_1", gomock.Any()).Return(testKey("*"), "jgd_live_x", nil)
	}},
	"DELETE /keys/:id": {"/admin/v1/keys/key_1", "", "API key revoked", func(f *fixture) {
		f.accounts.EXPECT().RevokeKey(gomock.Any(), "key_1").Return(testKey("*"), nil)
	}},
	"POST /accounts/:id/adjustments": {"/admin/v1/accounts/acc_1/adjustments", `{"amount":10,"description":"acerto"}`, "Adjustment posted", func(f *fixture) {
		f.accounts.EXPECT().Adjust(gomock.Any(), "acc_1", gomock.Any(), "").Return(routeTx, nil)
	}},
	"POST /transfers/:id/review": {"/admin/v1/transfers/tx_1/review", `{"decision":"approve"}`, "Decision accepted", func(f *fixture) {
		f.transfers.EXPECT().Review(gomock.Any(), "tx_1", "approve").Return(nil)
	}},
	"GET /ledger/verify": {"/admin/v1/ledger/verify", "", "Ledger verified", func(f *fixture) {
		f.accounts.EXPECT().VerifyLedger(gomock.Any()).Return(nil, nil)
	}},
	"POST /accounts/:id/webhooks": {"/admin/v1/accounts/acc_1/webhooks", `{"url":"https://hooks.example.com/j","events":["*"]}`,
		"Webhook endpoint created; the secret is shown only now", func(f *fixture) {
			f.webhooks.EXPECT().Create(gomock.Any(), "acc_1", nil, gomock.Any()).Return(routeEndpoint, nil)
		}},
	"POST /accounts/:id/users": {"/admin/v1/accounts/acc_1/users", `{"email":"Dev@Example.com","role":"developer"}`,
		"Dashboard user invited; the link is shown only now", func(f *fixture) {
			f.dashPeople.EXPECT().Invite(gomock.Any(), "acc_1", nil, dashboard.Invite{Email: "dev@example.com", Role: "developer"}).
				Return(service.Invitation{User: dashboard.User{ID: "usr_1", Email: "dev@example.com", Role: "developer"},
					URL: testPublicURL + "/dashboard/set-password/tok"}, nil)
		}},
	"GET /accounts/:id/webhooks": {"/admin/v1/accounts/acc_1/webhooks", "", "Webhook endpoints", func(f *fixture) {
		f.webhooks.EXPECT().List(gomock.Any(), service.EndpointScope{AccountID: "acc_1"}, 1, 50).Return(nil, 0, nil)
	}},
	"GET /webhooks/:id/deliveries": {"/admin/v1/webhooks/whe_1/deliveries?status=failed", "", "Webhook deliveries", func(f *fixture) {
		f.webhooks.EXPECT().Deliveries(gomock.Any(), "whe_1", "failed", 1, 50).Return([]service.Delivery{{ID: "dlv_1"}}, 1, nil)
	}},
	"GET /deliveries/:id": {"/admin/v1/deliveries/dlv_1", "", "Webhook delivery", func(f *fixture) {
		f.webhooks.EXPECT().Delivery(gomock.Any(), "dlv_1").Return(service.Delivery{ID: "dlv_1"}, nil)
	}},
	"POST /deliveries/:id/redeliver": {"/admin/v1/deliveries/dlv_1/redeliver", "", "Redelivery started", func(f *fixture) {
		f.webhooks.EXPECT().Redeliver(gomock.Any(), "dlv_1").Return(service.Redelivery{DeliveryID: "dlv_1", Run: 1, WorkflowID: "wf"}, nil)
	}},
	// webhook.test.
	"POST /webhooks/:id/test": {"/admin/v1/webhooks/whe_1/test", "", "Test event sent", func(f *fixture) {
		f.webhooks.EXPECT().Test(gomock.Any(), "whe_1", gomock.Any()).Return(service.SentTest{EventID: "evt_1", DeliveryID: "dlv_1"}, nil)
	}},
}

// txGet is a get or status route of transaction-typed records: it reads
// through Transactions.Get with the route's types.
func txGet(path, message string, types ...string) routeCase {
	return routeCase{path, "", message, func(f *fixture) {
		f.txs.EXPECT().Get(gomock.Any(), gomock.Any(), "tx_1", anySlice(types)...).Return(routeTx, nil)
	}}
}

// txList is a list route of transaction-typed records.
func txList(path, message string) routeCase {
	return routeCase{path, "", message, func(f *fixture) {
		f.txs.EXPECT().List(gomock.Any(), gomock.Any(), gomock.Any()).Return([]domain.Transaction{routeTx}, 1, nil)
	}}
}

func transferCreate(path string) routeCase {
	return routeCase{path, `{"amount":10,"pixKey":"a@example.com","pixKeyType":"EMAIL"}`, "PIX transfer created", func(f *fixture) {
		f.transfers.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(routeTx, nil)
	}}
}

func anySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// adminListener sends a request with the admin token to the operators'
// listener, which has every admin route (profiles included).
func (f *fixture) adminListener(method, path, body string) *httptest.ResponseRecorder {
	f.t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	r.Header.Set("X-Admin-Token", testAdminToken)
	w := httptest.NewRecorder()
	f.srv.AdminHandler().ServeHTTP(w, r)
	return w
}

// withAllFeatures makes testSecret a key holding perms, of an account with
// every feature on (each route then reaches its handler whatever its gate).
func (f *fixture) withAllFeatures(perms ...string) *fixture {
	acct := testAccount()
	acct.Features = domain.Features{Subaccounts: true, SubaccountPix: true, AutoContest: true, FiscalInvoice: true,
		PixAutomatic: true, CreditBureau: true, Crypto: true, MobileRecharge: true}
	f.auth.EXPECT().Resolve(gomock.Any(), testSecret).Return(testKey(perms...), acct, nil).AnyTimes()
	return f
}

// keyScopeOf is the scope of the test key's own endpoints.
func keyScopeOf() service.EndpointScope {
	return service.EndpointScope{AccountID: testAccountID, KeyID: testKeyID}
}

// Every route of the route tables has a handler test that
// runs it through the mocks and answers 200 with its message, the use case
// called once; a new route without a case here fails.
func TestEveryRouteHasAHandlerTest(t *testing.T) {
	t.Parallel()
	run := func(t *testing.T, table map[string]routeCase, routes []Route, admin bool) {
		seen := map[string]bool{}
		for _, r := range routes {
			key := r.Method + " " + r.Path
			seen[key] = true
			tc, found := table[key]
			if !found {
				t.Errorf("route %s has no handler test: add a case to routeCases/adminRouteCases", key)
				continue
			}
			t.Run(key, func(t *testing.T) {
				t.Parallel()
				f := newFixture(t)
				tc.expect(f)
				switch {
				case admin && tc.message == "":
					if w := f.adminListener(r.Method, tc.path, tc.body); w.Code != http.StatusOK {
						t.Fatalf("%s %s = %d, want 200", r.Method, tc.path, w.Code)
					}
				case admin:
					expectOK(t, f.adminListener(r.Method, tc.path, tc.body), tc.message)
				default:
					f.withAllFeatures("*")
					expectOK(t, f.merchant(r.Method, tc.path, tc.body), tc.message)
				}
			})
		}
		for key := range table {
			if !seen[key] {
				t.Errorf("case %s names no route of the table", key)
			}
		}
	}
	t.Run("merchant", func(t *testing.T) { t.Parallel(); run(t, routeCases, Routes(), false) })
	t.Run("admin", func(t *testing.T) { t.Parallel(); run(t, adminRouteCases, adminRoutes(), true) })
}
