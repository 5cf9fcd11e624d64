package api

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/dashboard"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/service"
)

// dashPageCalls are the dashboard's routes for the page headers' test:
// the users' pages without a session (a redirect to the login), the
// public forms and their refusals.
func dashPageCalls() map[string][]pageCall {
	none := func(*fixture) {}
	login := url.Values{"email": {"a@b.c"}, "password": {"x"}}.Encode()
	out := map[string][]pageCall{
		"GET /dashboard/login": {{"GET", "/dashboard/login", "", none}},
		"POST /dashboard/login": {{"POST", "/dashboard/login", login, func(f *fixture) {
			f.dashPeople.EXPECT().Login(gomock.Any(), gomock.Any()).Return(service.DashboardUser{}, service.ErrLoginFailed)
		}}},
		"POST /dashboard/logout": {{"POST", "/dashboard/logout", "", none}},
		"GET /dashboard/signup":  {{"GET", "/dashboard/signup", "", none}},
		"POST /dashboard/signup": {{"POST", "/dashboard/signup", url.Values{"name": {"Loja"}}.Encode(), none}},
		"GET /dashboard/set-password/:token": {{"GET", "/dashboard/set-password/tok", "", func(f *fixture) {
			f.dashPeople.EXPECT().InviteLive(gomock.Any(), "tok").Return(false, nil)
		}}},
		"POST /dashboard/set-password/:token": {{"POST", "/dashboard/set-password/tok", "password=x", func(f *fixture) {
			f.dashPeople.EXPECT().SetPassword(gomock.Any(), "tok", gomock.Any()).Return(domain.Invalid("password", "is short"))
		}}},
	}
	for _, r := range dashUserRoutes {
		method, path, _ := strings.Cut(r, " ")
		out[r] = []pageCall{{method, strings.ReplaceAll(path, ":id", "x_1"), "", none}}
	}
	return out
}

// dashUserRoutes are the dashboard's routes behind a login.
var dashUserRoutes = []string{"GET /dashboard/", "GET /dashboard/events", "GET /dashboard/transactions",
	"GET /dashboard/transactions.csv", "GET /dashboard/payments/:id", "GET /dashboard/payments/:id/events",
	"GET /dashboard/subaccounts", "GET /dashboard/billings", "GET /dashboard/checkouts", "GET /dashboard/keys", "POST /dashboard/keys", "POST /dashboard/keys/:id/revoke",
	"POST /dashboard/keys/:id/roll", "GET /dashboard/webhooks", "POST /dashboard/webhooks", "GET /dashboard/webhooks/:id",
	"POST /dashboard/webhooks/:id/test", "POST /dashboard/webhooks/:id/status", "POST /dashboard/webhooks/:id/delete", "POST /dashboard/webhooks/:id/roll",
	"POST /dashboard/deliveries/:id/resend", "GET /dashboard/users", "POST /dashboard/users",
	"POST /dashboard/users/:id/remove", "GET /dashboard/audit", "GET /dashboard/security/2fa", "POST /dashboard/security/2fa"}

// dashUserAs is a user of acc_1 with role, under epoch 2.
func dashUserAs(role string) service.DashboardUser {
	return service.DashboardUser{Epoch: 2, Account: domain.Account{ID: "acc_1", Name: "Loja"},
		User: dashboard.User{ID: "usr_1", AccountID: "acc_1", Email: "u@loja.com", Role: role, Epoch: 2}}
}

// dashLogin logs u in through the form, has every later request's
// session stand for u, and answers the session cookie.
func (f *fixture) dashLogin(u service.DashboardUser) *http.Cookie {
	f.t.Helper()
	f.dashPeople.EXPECT().Login(gomock.Any(), gomock.Any()).Return(u, nil)
	f.dashPeople.EXPECT().User(gomock.Any(), u.User.ID, u.Epoch, testPeer).Return(u, nil).AnyTimes()
	w := f.postForm("/dashboard/login", url.Values{"email": {u.User.Email}, "password": {"P4ss!word"}}, testPeer+":1000")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/dashboard/" {
		f.t.Fatalf("login: %d %q", w.Code, w.Header().Get("Location"))
	}
	for _, c := range w.Result().Cookies() {
		if strings.HasSuffix(c.Name, dashCookie) {
			return c
		}
	}
	f.t.Fatal("login set no session cookie")
	return nil
}

// A viewer reads and changes nothing: every form behind the login but its
// own second factor's is a 403, and no use case is asked (the mock has
// no such expectation).
func TestDashboardViewerPostsAre403(t *testing.T) {
	t.Parallel()
	for _, r := range dashUserRoutes {
		method, path, _ := strings.Cut(r, " ")
		if method != http.MethodPost || path == "/dashboard/security/2fa" {
			continue
		}
		t.Run(r, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			ck := f.dashLogin(dashUserAs(dashboard.RoleViewer))
			w := f.withCookie("POST", strings.ReplaceAll(path, ":id", "x_1"), ck, url.Values{"name": {"k"}})
			if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "papel") {
				t.Fatalf("%s = %d, want 403: %s", r, w.Code, w.Body)
			}
		})
	}
}

// Each page behind the login, as its use case answers it: found, another
// account's id (404), a role that may not (403).
func TestDashboardPages(t *testing.T) {
	t.Parallel()
	owner := dashUserAs(dashboard.RoleOwner)
	charge := domain.Transaction{ID: "tx_1", Type: domain.TypePixIn, Status: domain.StatusPending, Amount: money.Cents(1234)}
	cases := []struct {
		name, method, path string
		form               url.Values
		expect             func(f *fixture)
		status             int
		has                string
	}{
		{"home", "GET", "/dashboard/", nil, func(f *fixture) {
			f.dashMoney.EXPECT().Balance(gomock.Any(), owner).Return(service.Balance{Available: 123456}, nil)
			f.dashMoney.EXPECT().Statement(gomock.Any(), owner, gomock.Any()).Return([]domain.Transaction{charge}, 1, nil)
		}, 200, "R$ 1.234,56"},
		{"statement", "GET", "/dashboard/transactions?type=PIX_IN&status=PENDING", nil, func(f *fixture) {
			f.dashMoney.EXPECT().Statement(gomock.Any(), owner, gomock.Any()).DoAndReturn(
				func(_ any, _ service.DashboardUser, lf service.ListFilter) ([]domain.Transaction, int, error) {
					if len(lf.Types) != 1 || lf.Types[0] != "PIX_IN" || lf.Status != "PENDING" {
						t.Errorf("filter %+v", lf)
					}
					return []domain.Transaction{charge}, 1, nil
				})
		}, 200, `data-record-id="tx_1"`},
		{"statement, bad type", "GET", "/dashboard/transactions?type=NOPE", nil, func(*fixture) {}, 400, "Tipo"},
		{"csv", "GET", "/dashboard/transactions.csv", nil, func(f *fixture) {
			f.dashMoney.EXPECT().Statement(gomock.Any(), owner, gomock.Any()).Return([]domain.Transaction{charge}, 1, nil)
		}, 200, "id,createdAt,type,status,amount,feeAmount,netAmount,description\ntx_1,"},
		{"payment", "GET", "/dashboard/payments/tx_1", nil, func(f *fixture) {
			f.dashMoney.EXPECT().Payment(gomock.Any(), owner, "tx_1").Return(service.Timeline{Record: charge,
				Steps: []service.Step{{Kind: "attempt", Title: "payment.received", Detail: "HTTP 500 · 3 ms", Failed: true, DeliveryID: "dlv_1"}}}, nil)
		}, 200, "/dashboard/deliveries/dlv_1/resend"},
		{"another account's payment", "GET", "/dashboard/payments/tx_9", nil, func(f *fixture) {
			f.dashMoney.EXPECT().Payment(gomock.Any(), owner, "tx_9").Return(service.Timeline{}, domain.NotFound("record"))
		}, 404, "não existe"},
		{"keys", "GET", "/dashboard/keys", nil, func(f *fixture) {
			f.dashKeys.EXPECT().Keys(gomock.Any(), owner).Return([]service.ListedKey{{APIKey: domain.APIKey{ID: "key_1", Name: "backend"}}}, nil)
		}, 200, `data-key="key_1"`},
		{"create key", "POST", "/dashboard/keys", url.Values{"name": {"backend"}, "permissions": {"payment-pix/*"},
			"ipAllowlist": {"10.0.0.0/8\r\n\r\n192.168.0.1/32"}, "rateLimitPerMinute": {"60"}}, func(f *fixture) {
			f.dashKeys.EXPECT().CreateKey(gomock.Any(), owner, domain.NewKey{Name: "backend", Permissions: []string{"payment-pix/*"},
				IPAllowlist: []string{"10.0.0.0/8", "192.168.0.1/32"}, RateLimitPerMinute: 60}).
				Return(domain.APIKey{ID: "key_2", Name: "backend"}, "jgd_live_secret", nil)
			f.dashKeys.EXPECT().Keys(gomock.Any(), owner).Return(nil, nil)
		}, 200, `<code data-secret>jgd_live_secret</code>`},
		{"create key, no permission", "POST", "/dashboard/keys", url.Values{"name": {"backend"}}, func(*fixture) {}, 400, "Permissões"},
		{"revoke another account's key", "POST", "/dashboard/keys/key_9/revoke", url.Values{}, func(f *fixture) {
			f.dashKeys.EXPECT().RevokeKey(gomock.Any(), owner, "key_9").Return(domain.APIKey{}, domain.NotFound("key"))
		}, 404, "não existe"},
		{"revoke", "POST", "/dashboard/keys/key_1/revoke", url.Values{}, func(f *fixture) {
			f.dashKeys.EXPECT().RevokeKey(gomock.Any(), owner, "key_1").Return(domain.APIKey{ID: "key_1"}, nil)
		}, 303, ""},
		{"create endpoint", "POST", "/dashboard/webhooks", url.Values{"url": {"https://h.example.com/w"}, "events": {"payment.paid"}},
			func(f *fixture) {
				f.dashKeys.EXPECT().CreateEndpoint(gomock.Any(), owner, gomock.Any()).Return(service.WebhookEndpoint{ID: "whe_1", Secret: "whsec_x"}, nil)
				f.dashKeys.EXPECT().Endpoints(gomock.Any(), owner).Return(nil, nil)
			}, 200, `data-endpoint-id>whe_1<`},
		{"test endpoint", "POST", "/dashboard/webhooks/whe_1/test", url.Values{}, func(f *fixture) {
			f.dashKeys.EXPECT().TestEndpoint(gomock.Any(), owner, "whe_1", gomock.Any()).Return(service.SentTest{}, nil)
		}, 303, ""},
		{"endpoint's deliveries", "GET", "/dashboard/webhooks/whe_1", nil, func(f *fixture) {
			f.dashKeys.EXPECT().Endpoint(gomock.Any(), owner, "whe_1").Return(service.WebhookEndpoint{ID: "whe_1", Secret: "whsec_x"}, nil)
			f.dashKeys.EXPECT().Deliveries(gomock.Any(), owner, "whe_1", 1).Return([]service.Delivery{{ID: "dlv_1", Status: "DELIVERED"}}, 1, nil)
		}, 200, `data-delivery-id="dlv_1"`},
		{"billings", "GET", "/dashboard/billings?status=pending&method=boleto", nil, func(f *fixture) {
			f.dashMoney.EXPECT().Billings(gomock.Any(), owner, service.BillingFilter{Page: 1, PageSize: 50, Status: "PENDING", Method: "BOLETO"}).
				Return([]billing.Billing{{ID: "bil_1", Method: "BOLETO", Status: "PENDING", Amount: 15000}}, 1, nil)
		}, 200, "R$ 150,00"},
		{"billings, bad status", "GET", "/dashboard/billings?status=nope", nil, func(*fixture) {}, 400, "Situação"},
		{"checkouts", "GET", "/dashboard/checkouts?status=paid", nil, func(f *fixture) {
			f.dashMoney.EXPECT().Checkouts(gomock.Any(), owner, "PAID", 1).
				Return([]checkout.CheckoutSession{{ID: "cs_1", Status: "PAID", TransactionID: "tx_1", Amount: 990}}, 1, nil)
		}, 200, `/dashboard/payments/tx_1`},
		{"roll an endpoint's secret", "POST", "/dashboard/webhooks/whe_1/roll", url.Values{}, func(f *fixture) {
			f.dashKeys.EXPECT().RollEndpointSecret(gomock.Any(), owner, "whe_1").Return(service.WebhookEndpoint{ID: "whe_1", Secret: "whsec_new"}, nil)
			f.dashKeys.EXPECT().Endpoint(gomock.Any(), owner, "whe_1").Return(service.WebhookEndpoint{ID: "whe_1", Secret: "whsec_new"}, nil)
			f.dashKeys.EXPECT().Deliveries(gomock.Any(), owner, "whe_1", 1).Return(nil, 0, nil)
		}, 200, `<code data-secret>whsec_new</code>`},
		{"users, a developer", "GET", "/dashboard/users", nil, func(f *fixture) {
			f.dashPeople.EXPECT().Users(gomock.Any(), owner).Return(nil, domain.Forbidden("no"))
		}, 403, "papel"},
		{"audit", "GET", "/dashboard/audit", nil, func(f *fixture) {
			f.dashPeople.EXPECT().AuditLog(gomock.Any(), owner, int64(0)).Return([]service.AuditEntry{{ID: 1, Action: "key.create"}}, nil)
		}, 200, "criou chave"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			ck := f.dashLogin(owner)
			tc.expect(f)
			w := f.withCookie(tc.method, tc.path, ck, tc.form)
			if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.has) {
				t.Fatalf("%s %s = %d, want %d with %q: %s", tc.method, tc.path, w.Code, tc.status, tc.has, w.Body)
			}
			if strings.Contains(w.Body.String(), "whsec_x") && tc.method == "GET" {
				t.Fatal("a page shows an endpoint's secret after its creation")
			}
		})
	}
}

// Sign-up: an account and its owner logged in (303), a refused field is
// the form again (400), the address's budget spent is a 429, a closed
// sign-up is a 404.
func TestDashboardSignup(t *testing.T) {
	t.Parallel()
	form := url.Values{"name": {"Loja Nova"}, "email": {"Dona@Loja.com"}, "document": {"52998224725"}, "password": {"Sup3r!senha"}}
	t.Run("created", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.dashPeople.EXPECT().Signup(gomock.Any(), gomock.Any(), testPeer).DoAndReturn(func(_ any, in dashboard.Signup, _ string) (service.DashboardUser, error) {
			if in.Account.Email != "dona@loja.com" || in.Account.Document != "52998224725" || in.Password != "Sup3r!senha" {
				t.Errorf("signup %+v", in)
			}
			return dashUserAs(dashboard.RoleOwner), nil
		})
		w := f.postForm("/dashboard/signup", form, testPeer+":1000")
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/dashboard/" || len(w.Result().Cookies()) == 0 {
			t.Fatalf("signup = %d %q", w.Code, w.Header().Get("Location"))
		}
	})
	t.Run("bad document", func(t *testing.T) {
		t.Parallel()
		bad := url.Values{"name": {"Loja"}, "email": {"a@b.com"}, "document": {"123"}, "password": {"Sup3r!senha"}}
		w := newFixture(t).postForm("/dashboard/signup", bad, testPeer+":1000")
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "CPF ou CNPJ") {
			t.Fatalf("bad document = %d: %s", w.Code, w.Body)
		}
	})
	t.Run("throttled", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.dashPeople.EXPECT().Signup(gomock.Any(), gomock.Any(), testPeer).Return(service.DashboardUser{}, &service.ThrottledError{RetryAfter: 90e9})
		w := f.postForm("/dashboard/signup", form, testPeer+":1000")
		if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" {
			t.Fatalf("throttled = %d %q", w.Code, w.Header().Get("Retry-After"))
		}
	})
	t.Run("closed", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t, func(d *Deps) { d.Config.DashboardSignup = false })
		if w := f.postForm("/dashboard/signup", form, testPeer+":1000"); w.Code != http.StatusNotFound {
			t.Fatalf("closed sign-up = %d", w.Code)
		}
	})
}
