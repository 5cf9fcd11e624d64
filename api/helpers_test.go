package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/alexedwards/scs/v2/memstore"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/api/apimock"
	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/domain"
)

// Handler tests: a *Server built from generated mocks of the use cases,
// driven through its http.Handler. DB and Temporal stay nil: every route
// reaches the database only through a use case, so every route can be
// tested here (TestEveryRouteHasAHandlerTest).

const (
	testSecret     = "sk_test_handler_secret"
	testAdminToken = "admin-token-for-handler-tests"
	testPublicURL  = "https://api.jangada.test"
	testAccountID  = "acc_handler_test"
	testKeyID      = "key_handler_test"
	// testPeer is the client address httptest.NewRequest gives a request.
	testPeer = "192.0.2.1"
)

func TestMain(m *testing.M) {
	// observe logs one line per request: keep the test output readable.
	slog.SetDefault(slog.New(slog.DiscardHandler))
	code := m.Run()
	// Every error answer the tests got is one its operation lists
	// (api/openapi_answers_test.go).
	if missing, checked := undocumentedAnswers(); code == 0 && len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d of the %d error answers the tests got are not listed in their operation's responses:\n  %s\n",
			len(missing), checked, strings.Join(missing, "\n  "))
		code = 1
	}
	os.Exit(code)
}

// testConfig is the smallest valid configuration of the HTTP layer.
func testConfig() config.Config {
	return config.Config{
		AdminToken:         testAdminToken,
		PublicURL:          testPublicURL,
		Processor:          "sandbox",
		RateLimitPerMinute: 1000,
		DashboardSignup:    true,
	}
}

// testAccount is the account every test key belongs to.
func testAccount() domain.Account {
	return domain.Account{ID: testAccountID, Name: "Loja Teste", Email: "loja@example.com", Status: domain.AccountActive}
}

// testKey is a key of testAccount holding perms.
func testKey(perms ...string) domain.APIKey {
	return domain.APIKey{ID: testKeyID, AccountID: testAccountID, Name: "test", Permissions: perms, RateLimitPerMinute: 1000}
}

// fixture is one Server over fresh mocks; each subtest builds its own, so
// gomock reports unexpected calls against that subtest.
type fixture struct {
	t         testing.TB
	auth      *apimock.MockAuth
	charges   *apimock.MockCharges
	transfers *apimock.MockTransfers
	refunds   *apimock.MockRefunds
	internal  *apimock.MockInternal
	schedules *apimock.MockSchedules
	webhooks  *apimock.MockWebhooks
	sandbox   *apimock.MockSandbox
	subs      *apimock.MockSubaccounts
	txs       *apimock.MockTransactions
	accounts  *apimock.MockAccounts
	idem      *apimock.MockIdempotency
	// links is the payment links product.
	links   *apimock.MockPaymentLinks
	pixauto *apimock.MockPixAutomatic
	// Store: customers, products, coupons.
	customers *apimock.MockCustomers
	// checkouts is the payment links' checkout.
	checkouts *apimock.MockCheckouts
	products  *apimock.MockProducts
	// Billings.
	billings *apimock.MockBillings
	coupons  *apimock.MockCoupons
	meds     *apimock.MockMEDs // MED disputes
	srv      *Server
	// Mobile recharge and crypto.
	recharges *apimock.MockRecharges
	crypto    *apimock.MockCrypto

	// Subscriptions.
	subscriptions *apimock.MockSubscriptions
	// Credit bureau.
	bureau *apimock.MockBureau
	// The sub-account portal.
	portal *apimock.MockPortal
	// The merchant dashboard, one mock per part of its use cases.
	dashPeople *apimock.MockDashboardPeople
	dashKeys   *apimock.MockDashboardIntegration
	dashMoney  *apimock.MockDashboardMoney
}

// fixtureOption adjusts the Deps before the Server is built.
type fixtureOption func(*Deps)

// withoutSandbox builds the Server as with a real processor: no simulator.
func withoutSandbox(d *Deps) { d.Sandbox = nil }

// withConfig replaces the configuration.
func withConfig(edit func(*config.Config)) fixtureOption {
	return func(d *Deps) { edit(&d.Config) }
}

func newFixture(t testing.TB, opts ...fixtureOption) *fixture {
	t.Helper()
	ctrl := gomock.NewController(t)
	f := &fixture{
		t:         t,
		auth:      apimock.NewMockAuth(ctrl),
		charges:   apimock.NewMockCharges(ctrl),
		transfers: apimock.NewMockTransfers(ctrl),
		refunds:   apimock.NewMockRefunds(ctrl),
		internal:  apimock.NewMockInternal(ctrl),
		schedules: apimock.NewMockSchedules(ctrl),
		webhooks:  apimock.NewMockWebhooks(ctrl),
		sandbox:   apimock.NewMockSandbox(ctrl),
		subs:      apimock.NewMockSubaccounts(ctrl),
		txs:       apimock.NewMockTransactions(ctrl),
		accounts:  apimock.NewMockAccounts(ctrl),
		idem:      apimock.NewMockIdempotency(ctrl),
		links:     apimock.NewMockPaymentLinks(ctrl),
		pixauto:   apimock.NewMockPixAutomatic(ctrl),
		// Store: customers, products, coupons.
		customers: apimock.NewMockCustomers(ctrl),
		checkouts: apimock.NewMockCheckouts(ctrl),
		products:  apimock.NewMockProducts(ctrl),
		// Billings.
		billings: apimock.NewMockBillings(ctrl),
		coupons:  apimock.NewMockCoupons(ctrl),
		// Mobile recharge and crypto.
		recharges: apimock.NewMockRecharges(ctrl),
		crypto:    apimock.NewMockCrypto(ctrl),
		meds:      apimock.NewMockMEDs(ctrl),

		// Subscriptions.
		subscriptions: apimock.NewMockSubscriptions(ctrl),
		// Credit bureau.
		bureau:     apimock.NewMockBureau(ctrl),
		portal:     apimock.NewMockPortal(ctrl),
		dashPeople: apimock.NewMockDashboardPeople(ctrl),
		dashKeys:   apimock.NewMockDashboardIntegration(ctrl),
		dashMoney:  apimock.NewMockDashboardMoney(ctrl),
	}
	d := Deps{
		Config:       testConfig(),
		Auth:         f.auth,
		Charges:      f.charges,
		Transfers:    f.transfers,
		Refunds:      f.refunds,
		Internal:     f.internal,
		Schedules:    f.schedules,
		Webhooks:     f.webhooks,
		Sandbox:      f.sandbox,
		Subaccounts:  f.subs,
		Transactions: f.txs,
		Accounts:     f.accounts,
		PaymentLinks: f.links,
		Checkouts:    f.checkouts,
		Idempotency:  f.idem,
		PixAutomatic: f.pixauto,
		// Store: customers, products, coupons.
		Customers: f.customers, Products: f.products, Coupons: f.coupons,
		// Billings.
		Billings: f.billings,
		// Mobile recharge and crypto.
		Recharges: f.recharges,
		Crypto:    f.crypto,
		MEDs:      f.meds,

		// Subscriptions.
		Subscriptions: f.subscriptions,
		// Credit bureau.
		Bureau: f.bureau,
		// The sub-account portal, its sessions in memory.
		Portal: f.portal, Sessions: memstore.NewWithCleanupInterval(0),
		// The merchant dashboard, on the same sessions' store.
		Dashboard: dashMocks{f.dashPeople, f.dashKeys, f.dashMoney},
	}
	for _, o := range opts {
		o(&d)
	}
	f.srv = New(d)
	return f
}

// withKey makes testSecret resolve to key (and its account), as often as asked.
func (f *fixture) withKey(key domain.APIKey) *fixture {
	f.auth.EXPECT().Resolve(gomock.Any(), testSecret).Return(key, testAccount(), nil).AnyTimes()
	return f
}

// authorized makes testSecret a key holding perms.
func (f *fixture) authorized(perms ...string) *fixture { return f.withKey(testKey(perms...)) }

// serve sends one request; headers are name, value pairs.
func (f *fixture) serve(method, path, body string, headers ...string) *httptest.ResponseRecorder {
	f.t.Helper()
	var r *http.Request
	if body == "" {
		r = httptest.NewRequest(method, path, nil)
	} else {
		r = httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
	}
	if len(headers)%2 != 0 {
		f.t.Fatalf("serve: odd number of header arguments %q", headers)
	}
	for i := 0; i < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	if strings.HasPrefix(path, "/admin/") { // the admin API's only listener
		f.srv.AdminHandler().ServeHTTP(w, r)
	} else {
		f.srv.Handler().ServeHTTP(w, r)
	}
	recordAnswer(method, path, w.Code)
	return w
}

// merchant sends a request with the test API key.
func (f *fixture) merchant(method, path, body string) *httptest.ResponseRecorder {
	f.t.Helper()
	return f.serve(method, path, body, "X-API-Key", testSecret)
}

// admin sends a request with the admin token.
func (f *fixture) admin(method, path, body string) *httptest.ResponseRecorder {
	f.t.Helper()
	return f.serve(method, path, body, "X-Admin-Token", testAdminToken)
}

// apiEnvelope is the response envelope as a client reads it.
type apiEnvelope struct {
	Success   *bool           `json:"success"`
	Message   *string         `json:"message"`
	Data      json.RawMessage `json:"data"`
	RequestID string          `json:"requestId"`
}

// readEnvelope decodes the envelope strictly (no other top-level fields)
// and checks that the X-Request-Id header equals its requestId.
func readEnvelope(t *testing.T, w *httptest.ResponseRecorder) apiEnvelope {
	t.Helper()
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	dec := json.NewDecoder(bytes.NewReader(w.Body.Bytes()))
	dec.DisallowUnknownFields()
	var env apiEnvelope
	if err := dec.Decode(&env); err != nil {
		t.Fatalf("body is not the envelope: %v\n%s", err, w.Body.String())
	}
	if env.Success == nil || env.Message == nil {
		t.Errorf("envelope lacks success or message: %s", w.Body.String())
	}
	hdr := w.Header().Get("X-Request-Id")
	if hdr == "" || env.RequestID != hdr {
		t.Errorf("X-Request-Id header %q, envelope requestId %q: want equal and not empty", hdr, env.RequestID)
	}
	return env
}

// expectFail checks an error answer: the status, success false, no data,
// and a message starting with wantPrefix (the field it names comes first).
func expectFail(t *testing.T, w *httptest.ResponseRecorder, status int, wantPrefix string) apiEnvelope {
	t.Helper()
	if w.Code != status {
		t.Errorf("status = %d, want %d; body %s", w.Code, status, w.Body.String())
	}
	env := readEnvelope(t, w)
	if env.Success == nil || *env.Success {
		t.Errorf("success is not false: %s", w.Body.String())
	}
	if env.Data != nil {
		t.Errorf("error envelope carries data: %s", w.Body.String())
	}
	if env.Message == nil || !strings.HasPrefix(*env.Message, wantPrefix) {
		t.Errorf("message = %q, want it to start with %q", deref(env.Message), wantPrefix)
	}
	return env
}

// expectOK checks a 200 success envelope with message and returns its data
// as raw fields.
func expectOK(t *testing.T, w *httptest.ResponseRecorder, message string) map[string]json.RawMessage {
	t.Helper()
	if w.Code != http.StatusOK {
		t.Fatalf("status = %d, want 200; body %s", w.Code, w.Body.String())
	}
	env := readEnvelope(t, w)
	if env.Success == nil || !*env.Success {
		t.Errorf("success is not true: %s", w.Body.String())
	}
	if got := deref(env.Message); got != message {
		t.Errorf("message = %q, want %q", got, message)
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal(env.Data, &data); err != nil {
		t.Fatalf("data is not an object: %v\n%s", err, w.Body.String())
	}
	return data
}

// expectFields checks data fields by their exact JSON text, e.g.
// "amount": `10.50`, "id": `"tx_1"`.
func expectFields(t *testing.T, data map[string]json.RawMessage, want map[string]string) {
	t.Helper()
	for k, v := range want {
		got, present := data[k]
		if !present {
			t.Errorf("data.%s is missing; data %v", k, rawKeys(data))
			continue
		}
		if string(got) != v {
			t.Errorf("data.%s = %s, want %s", k, got, v)
		}
	}
}

// expectAbsent checks that data lacks fields (internal ones must not leak).
func expectAbsent(t *testing.T, data map[string]json.RawMessage, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if v, present := data[k]; present {
			t.Errorf("data.%s = %s, want it absent", k, v)
		}
	}
}

func rawKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func ptr[T any](v T) *T { return &v }

// expectCaller checks that a use case got the authenticated account and key.
func expectCaller(t *testing.T, acct domain.Account, key domain.APIKey) {
	t.Helper()
	if acct.ID != testAccountID {
		t.Errorf("use case got account %q, want %q", acct.ID, testAccountID)
	}
	if key.ID != testKeyID {
		t.Errorf("use case got key %q, want %q", key.ID, testKeyID)
	}
}

// dashMocks is the dashboard's use cases made of its three parts' mocks.
type dashMocks struct {
	*apimock.MockDashboardPeople
	*apimock.MockDashboardIntegration
	*apimock.MockDashboardMoney
}
