package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
)

// getSchedulePath is the probe of the "allowed" cases: it needs no database
// (Schedules.Get is a mock) and takes the transfer-scheduled/get permission.
const getSchedulePath = "/v1/transfer-scheduled/get/sch_1"

func expectScheduleGet(f *fixture) {
	f.schedules.EXPECT().Get(gomock.Any(), gomock.Any(), "sch_1").
		DoAndReturn(func(_ any, acct domain.Account, id string) (schedule.Record, error) {
			if acct.ID != testAccountID {
				f.t.Errorf("Schedules.Get got account %q, want %q", acct.ID, testAccountID)
			}
			return schedule.Record{ID: id, Status: schedule.StatusActive}, nil
		})
}

func TestHandlerAuthentication(t *testing.T) {
	t.Parallel()
	const unknown = "sk_unknown"
	cases := []struct {
		name    string
		setup   func(f *fixture)
		method  string
		path    string
		headers []string
		status  int
		message string // prefix of the error message; "" for a success
	}{
		{
			name: "POST /v1/transfer-pix/create: no key → 401", method: "POST", path: "/v1/transfer-pix/create",
			status: http.StatusUnauthorized, message: "missing or invalid API key",
		},
		{
			name: "GET /v1/account/balance: no key → 401 before any read", method: "GET", path: "/v1/account/balance",
			status: http.StatusUnauthorized, message: "missing or invalid API key",
		},
		{
			name: "GET transfer-scheduled/get: unknown X-API-Key → 401", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", unknown},
			setup: func(f *fixture) {
				f.auth.EXPECT().Resolve(gomock.Any(), unknown).Return(domain.APIKey{}, domain.Account{}, domain.ErrUnauthorized)
			},
			status: http.StatusUnauthorized, message: "missing or invalid API key",
		},
		{
			name: "GET transfer-scheduled/get: unknown Bearer token → 401", method: "GET", path: getSchedulePath,
			headers: []string{"Authorization", "Bearer " + unknown},
			setup: func(f *fixture) {
				f.auth.EXPECT().Resolve(gomock.Any(), unknown).Return(domain.APIKey{}, domain.Account{}, domain.ErrUnauthorized)
			},
			status: http.StatusUnauthorized, message: "missing or invalid API key",
		},
		{
			name: "GET transfer-scheduled/get: Basic authorization is no key → 401 without lookup", method: "GET", path: getSchedulePath,
			headers: []string{"Authorization", "Basic " + testSecret},
			status:  http.StatusUnauthorized, message: "missing or invalid API key",
		},
		{
			name: "GET transfer-scheduled/get: key lookup unavailable → 503", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", testSecret},
			setup: func(f *fixture) {
				f.auth.EXPECT().Resolve(gomock.Any(), testSecret).Return(domain.APIKey{}, domain.Account{}, fmt.Errorf("db: key lookup: %w: dial tcp 10.0.0.5:5432", domain.ErrUnavailable))
			},
			status: http.StatusServiceUnavailable, message: domain.ErrUnavailable.Error(),
		},
		{
			name: "GET transfer-scheduled/get: key lookup fails unexpectedly → 500", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", testSecret},
			setup: func(f *fixture) {
				f.auth.EXPECT().Resolve(gomock.Any(), testSecret).Return(domain.APIKey{}, domain.Account{}, errors.New("pq: password authentication failed"))
			},
			status: http.StatusInternalServerError, message: "internal error",
		},
		{
			name: "GET transfer-scheduled/get: account lookup fails → 500", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", testSecret},
			setup: func(f *fixture) {
				f.auth.EXPECT().Resolve(gomock.Any(), testSecret).Return(domain.APIKey{}, domain.Account{}, errors.New("pq: connection reset"))
			},
			status: http.StatusInternalServerError, message: "internal error",
		},
		{
			name: "POST /v1/transfer-pix/create: key lacking the permission → 403", method: "POST", path: "/v1/transfer-pix/create",
			headers: []string{"X-API-Key", testSecret},
			setup:   func(f *fixture) { f.authorized("payment-pix/create", "transfer-pix/get") },
			status:  http.StatusForbidden, message: "this API key lacks the permission transfer-pix/create",
		},
		{
			name: "POST /v1/payouts/create: transfer-pix/create does not cover the legacy alias → 403", method: "POST", path: "/v1/payouts/create",
			headers: []string{"X-API-Key", testSecret},
			setup:   func(f *fixture) { f.authorized("transfer-pix/create") },
			status:  http.StatusForbidden, message: "this API key lacks the permission payouts/create",
		},
		{
			name: "POST /v1/transfer-scheduled/run-now: get permission only → 403", method: "POST", path: "/v1/transfer-scheduled/run-now/sch_1",
			headers: []string{"X-API-Key", testSecret},
			setup:   func(f *fixture) { f.authorized("transfer-scheduled/get") },
			status:  http.StatusForbidden, message: "this API key lacks the permission transfer-scheduled/run-now",
		},
		{
			name: "GET /v1/account/balance: key without permissions → 403 before any read", method: "GET", path: "/v1/account/balance",
			headers: []string{"X-API-Key", testSecret},
			setup:   func(f *fixture) { f.authorized() },
			status:  http.StatusForbidden, message: "this API key lacks the permission account/balance",
		},
		{
			name: "GET transfer-scheduled/get: transfer/* does not cover transfer-scheduled → 403", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", testSecret},
			setup:   func(f *fixture) { f.authorized("transfer/*") },
			status:  http.StatusForbidden, message: "this API key lacks the permission transfer-scheduled/get",
		},
		{
			name: "GET transfer-scheduled/get: exact permission → 200", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", testSecret},
			setup:   func(f *fixture) { f.authorized("transfer-scheduled/get"); expectScheduleGet(f) },
			status:  http.StatusOK,
		},
		{
			name: "GET transfer-scheduled/get: group wildcard transfer-scheduled/* → 200", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", testSecret},
			setup:   func(f *fixture) { f.authorized("transfer-scheduled/*"); expectScheduleGet(f) },
			status:  http.StatusOK,
		},
		{
			name: "GET transfer-scheduled/get: wildcard * → 200", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", testSecret},
			setup:   func(f *fixture) { f.authorized("*"); expectScheduleGet(f) },
			status:  http.StatusOK,
		},
		{
			name: "GET transfer-scheduled/get: Bearer token → 200", method: "GET", path: getSchedulePath,
			headers: []string{"Authorization", "Bearer " + testSecret},
			setup:   func(f *fixture) { f.authorized("*"); expectScheduleGet(f) },
			status:  http.StatusOK,
		},
		{
			name: "GET transfer-scheduled/get: blank X-API-Key falls back to Bearer → 200", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", "   ", "Authorization", "Bearer " + testSecret},
			setup:   func(f *fixture) { f.authorized("*"); expectScheduleGet(f) },
			status:  http.StatusOK,
		},
		{
			name: "GET transfer-scheduled/get: peer outside the IP allowlist → 403", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", testSecret},
			setup: func(f *fixture) {
				k := testKey("*")
				k.IPAllowlist = []string{"10.0.0.0/8", "203.0.113.7"}
				f.auth.EXPECT().Resolve(gomock.Any(), testSecret).Return(k, testAccount(), nil)
			},
			status: http.StatusForbidden, message: "requests from this address are not allowed for this key",
		},
		{
			name: "GET transfer-scheduled/get: forged X-Forwarded-For does not pass the IP allowlist → 403", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", testSecret, "X-Forwarded-For", "10.1.2.3", "X-Real-IP", "10.1.2.3"},
			setup: func(f *fixture) {
				k := testKey("*")
				k.IPAllowlist = []string{"10.0.0.0/8"}
				f.auth.EXPECT().Resolve(gomock.Any(), testSecret).Return(k, testAccount(), nil)
			},
			status: http.StatusForbidden, message: "requests from this address are not allowed for this key",
		},
		{
			name: "GET transfer-scheduled/get: peer inside an allowlisted CIDR → 200", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", testSecret},
			setup: func(f *fixture) {
				k := testKey("transfer-scheduled/get")
				k.IPAllowlist = []string{"10.0.0.0/8", "192.0.2.0/24"}
				f.withKey(k)
				expectScheduleGet(f)
			},
			status: http.StatusOK,
		},
		{
			name: "GET transfer-scheduled/get: peer equal to an allowlisted address → 200", method: "GET", path: getSchedulePath,
			headers: []string{"X-API-Key", testSecret},
			setup: func(f *fixture) {
				k := testKey("transfer-scheduled/get")
				k.IPAllowlist = []string{testPeer}
				f.withKey(k)
				expectScheduleGet(f)
			},
			status: http.StatusOK,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			if tc.setup != nil {
				tc.setup(f)
			}
			w := f.serve(tc.method, tc.path, "", tc.headers...)
			if tc.status == http.StatusOK {
				data := expectOK(t, w, "Scheduled transfer")
				expectFields(t, data, map[string]string{"id": `"sch_1"`})
				return
			}
			env := expectFail(t, w, tc.status, tc.message)
			if strings.Contains(deref(env.Message), "pq:") || strings.Contains(deref(env.Message), "10.0.0.5") {
				t.Errorf("message leaks the cause: %q", deref(env.Message))
			}
		})
	}
}

// Every merchant route refuses a request without a key, and every route
// with a permission refuses a key lacking it, naming the permission: both
// before the handler runs, so no route here touches the database.
func TestHandlerRouteTableGuards(t *testing.T) {
	t.Parallel()
	for _, r := range Routes() {
		path := "/v1" + strings.ReplaceAll(r.Path, ":id", "res_1")
		t.Run(r.Method+" "+path+": no key → 401", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			expectFail(t, f.serve(r.Method, path, `{}`), http.StatusUnauthorized, "missing or invalid API key")
		})
		if r.Permission == "" {
			continue
		}
		t.Run(r.Method+" "+path+": key without "+r.Permission+" → 403", func(t *testing.T) {
			t.Parallel()
			// Every other permission of the table, and wildcards of other groups.
			var perms []string
			for _, o := range Routes() {
				if o.Permission != "" && o.Permission != r.Permission {
					perms = append(perms, o.Permission)
				}
			}
			other := "subaccount/*"
			if strings.HasPrefix(r.Permission, "subaccount/") {
				other = "payment-pix/*"
			}
			f := newFixture(t).authorized(append(perms, other, "admin")...)
			expectFail(t, f.merchant(r.Method, path, `{}`), http.StatusForbidden, "this API key lacks the permission "+r.Permission)
		})
	}
}

func TestHandlerRateLimit(t *testing.T) {
	t.Parallel()
	t.Run("GET transfer-scheduled/get: key over its budget → 429", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		k := testKey("*")
		k.RateLimitPerMinute = 1
		f.withKey(k)
		expectScheduleGet(f) // only the first request reaches the handler
		w := f.merchant("GET", getSchedulePath, "")
		expectOK(t, w, "Scheduled transfer")
		if got := w.Header().Get("RateLimit-Limit"); got != "1" {
			t.Errorf("RateLimit-Limit = %q, want 1", got)
		}
		if got := w.Header().Get("RateLimit-Remaining"); got != "0" {
			t.Errorf("RateLimit-Remaining = %q, want 0", got)
		}
		w = f.merchant("GET", getSchedulePath, "")
		expectFail(t, w, http.StatusTooManyRequests, "rate limit exceeded")
		if w.Header().Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
	})
	t.Run("GET transfer-scheduled/get: anonymous peer over the default budget → 429", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t, withConfig(func(c *config.Config) { c.RateLimitPerMinute = 1 }))
		expectFail(t, f.serve("GET", getSchedulePath, ""), http.StatusUnauthorized, "missing or invalid API key")
		w := f.serve("GET", getSchedulePath, "")
		expectFail(t, w, http.StatusTooManyRequests, "rate limit exceeded")
		if w.Header().Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
	})
	t.Run("GET transfer-scheduled/get: unknown keys count against the peer's budget → 429 before any lookup", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t, withConfig(func(c *config.Config) { c.RateLimitPerMinute = 1 }))
		// Once the address has spent its budget, the next guess is refused
		// without looking the key up: one lookup, not two.
		f.auth.EXPECT().Resolve(gomock.Any(), gomock.Any()).Return(domain.APIKey{}, domain.Account{}, domain.ErrUnauthorized).Times(1)
		expectFail(t, f.serve("GET", getSchedulePath, "", "X-API-Key", "sk_guess_1"), http.StatusUnauthorized, "missing or invalid API key")
		expectFail(t, f.serve("GET", getSchedulePath, "", "X-API-Key", "sk_guess_2"), http.StatusTooManyRequests, "rate limit exceeded")
	})
}

func TestHandlerRequestID(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		sent   string
		echoed bool
	}{
		{name: "GET transfer-scheduled/get: sane caller id → echoed", sent: "client-req.0001:A_b", echoed: true},
		{name: "GET transfer-scheduled/get: too short caller id → replaced", sent: "abc"},
		{name: "GET transfer-scheduled/get: caller id with spaces → replaced", sent: "bad id with spaces"},
		{name: "GET transfer-scheduled/get: no caller id → minted"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			hdr := []string{}
			if tc.sent != "" {
				hdr = append(hdr, "X-Request-Id", tc.sent)
			}
			env := expectFail(t, f.serve("GET", getSchedulePath, "", hdr...), http.StatusUnauthorized, "missing or invalid API key")
			if tc.echoed && env.RequestID != tc.sent {
				t.Errorf("requestId = %q, want the caller's %q", env.RequestID, tc.sent)
			}
			if !tc.echoed && !strings.HasPrefix(env.RequestID, "req_") {
				t.Errorf("requestId = %q, want a minted req_ id", env.RequestID)
			}
		})
	}
}

func TestHandlerUnroutedAndHealth(t *testing.T) {
	t.Parallel()
	t.Run("GET /v1/nothing-here: unknown route → 404 envelope", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		expectFail(t, f.serve("GET", "/v1/nothing-here", ""), http.StatusNotFound, "route not found")
	})
	t.Run("GET /v1/payment-pix/create: wrong method → 404 envelope", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		expectFail(t, f.serve("GET", "/v1/payment-pix/create", ""), http.StatusNotFound, "route not found")
	})
	t.Run("GET /livez: → 200 with X-Request-Id", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		w := f.serve("GET", "/livez", "")
		if w.Code != http.StatusOK || strings.TrimSpace(w.Body.String()) != `{"status":"ok"}` {
			t.Errorf("GET /livez = %d %s, want 200 {\"status\":\"ok\"}", w.Code, w.Body.String())
		}
		if w.Header().Get("X-Request-Id") == "" {
			t.Error("GET /livez without X-Request-Id")
		}
	})
}

func TestHandlerSandboxRoutes(t *testing.T) {
	t.Parallel()
	for _, r := range Routes() {
		if !r.Sandbox {
			continue
		}
		path := "/v1" + strings.ReplaceAll(r.Path, ":id", "res_1")
		t.Run(r.Method+" "+path+": no simulator → 404 (route absent)", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, withoutSandbox).authorized("*")
			expectFail(t, f.merchant(r.Method, path, `{}`), http.StatusNotFound, "route not found")
		})
		t.Run(r.Method+" "+path+": simulator, no key → 401 (route present)", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			expectFail(t, f.serve(r.Method, path, `{}`), http.StatusUnauthorized, "missing or invalid API key")
		})
	}
	// The pay body is checked before the charge is looked up, so these
	// answer without the database; the simulator is never called.
	bad := []struct {
		name, body, message string
	}{
		{"bad JSON → 400", `{"payerName":`, "request body must be a JSON object"},
		{"non-object body → 400", `["Ana"]`, "request body must be a JSON object"},
		{"payerName not a string → 400", `{"payerName": 5}`, "payerName must be a string"},
		{"payerDocument not a string → 400", `{"payerDocument": 52998224725}`, "payerDocument must be a string"},
		{"invalid payerDocument → 400", `{"payerName":"Ana","payerDocument":"123.456.789-00"}`, "payer.document must be a valid CPF or CNPJ"},
		{"empty payerName → 400", `{"payerName":"  "}`, "payer.name must have at most 120 characters and not be empty"},
	}
	for _, tc := range bad {
		t.Run("POST /v1/sandbox/payment-pix/{id}/pay: "+tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("*")
			expectFail(t, f.merchant("POST", "/v1/sandbox/payment-pix/ch_1/pay", tc.body), http.StatusBadRequest, tc.message)
		})
	}
}
