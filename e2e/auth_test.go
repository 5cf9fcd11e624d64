package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/api"
	"github.com/jangada/jangada/app"
)

// TestEveryRouteRequiresKeyAndPermission walks the route table: every route
// answers 401 without a key and 403 to a key lacking its permission.
func TestEveryRouteRequiresKeyAndPermission(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	unrelated := e.merchant("nothing/none")
	for _, r := range api.Routes() {
		path := "/v1" + strings.NewReplacer(":id", "00000000-0000-0000-0000-000000000000").Replace(r.Path)
		if got := e.request(r.Method, path, nil, "{}"); got.Status != 401 || got.Success {
			t.Errorf("%s %s without key: %d", r.Method, r.Path, got.Status)
		}
		if got := e.call("jgd_live_notakey", r.Method, path, "{}"); got.Status != 401 {
			t.Errorf("%s %s with a bad key: %d", r.Method, r.Path, got.Status)
		}
		if r.Permission == "" {
			continue
		}
		if got := e.call(unrelated.Key, r.Method, path, "{}"); got.Status != 403 || !strings.Contains(got.Message, r.Permission) {
			t.Errorf("%s %s without %s: %d %s", r.Method, r.Path, r.Permission, got.Status, got.Message)
		}
		group, _, _ := strings.Cut(r.Permission, "/")
		for _, perm := range []string{r.Permission, group + "/*", "*"} {
			k := e.merchant(perm)
			if r.Feature != "" {
				e.enable(k, r.Feature)
			}
			if got := e.call(k.Key, r.Method, path, "{}"); got.Status == 401 || got.Status == 403 {
				t.Errorf("%s %s with %s: %d %s", r.Method, r.Path, perm, got.Status, got.Message)
			}
		}
	}
}

func TestBearerAuthAndRevocation(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant("account/*")
	if r := e.request("GET", "/v1/account/balance", map[string]string{"Authorization": "Bearer " + m.Key}, nil); r.Status != 200 {
		t.Fatalf("bearer: %d %s", r.Status, r.Message)
	}
	if r := e.admin("DELETE", "/keys/"+m.KeyID, nil); r.Status != 200 {
		t.Fatalf("revoke: %d", r.Status)
	}
	if r := e.call(m.Key, "GET", "/v1/account/balance", nil); r.Status != 401 {
		t.Fatalf("revoked key: %d", r.Status)
	}
}

// A key revoked, or an account changed, by another process (here plain
// SQL, as an operator's or another API process's change reaches this one:
// nothing in this process marks the kept keys stale but the change's NOTIFY,
// heard by a tail) is seen by an API process at once. That process keeps the
// keys it resolved for an hour here: only the NOTIFY can tell it.
func TestKeyAndAccountChangesReachEveryAPIProcess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := e.app.Cfg
	cfg.HTTPAddr, cfg.WSAddr, cfg.AdminAddr = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
	cfg.KeyCacheTTL = time.Hour
	other := startApp(t, cfg, app.Options{API: true})
	m := e.merchant()
	const gated = "/v1/subaccount/get/sub_none" // needs the subaccounts feature
	if r := other.call(m.Key, "GET", gated, nil); r.Status != 403 {
		t.Fatalf("before the feature: %d %s", r.Status, r.Message)
	}
	sql := func(query string, args ...any) {
		t.Helper()
		if _, err := e.app.DB.Exec(query, args...); err != nil {
			t.Fatal(err)
		}
	}
	sql(`UPDATE accounts SET features = features || '{"subaccounts": true}'::jsonb WHERE id = $1`, m.ID)
	eventually(t, "the API process to see the feature enabled", func() bool {
		return other.call(m.Key, "GET", gated, nil).Status == 404
	})
	sql(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, m.KeyID)
	eventually(t, "the API process to refuse the revoked key", func() bool {
		return other.call(m.Key, "GET", gated, nil).Status == 401
	})
}

func TestIPAllowlist(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	acct := e.merchant()
	make := func(cidrs []string) string {
		r := e.admin("POST", "/accounts/"+acct.ID+"/keys", map[string]any{"name": "ip", "permissions": []string{"*"}, "ipAllowlist": cidrs})
		if r.Status != 200 {
			t.Fatalf("key: %d %s", r.Status, r.Message)
		}
		return r.m(t)["key"].(string)
	}
	if r := e.call(make([]string{"10.0.0.0/8"}), "GET", "/v1/account/balance", nil); r.Status != 403 {
		t.Fatalf("outside allowlist: %d", r.Status)
	}
	if r := e.call(make([]string{"10.0.0.0/8", "127.0.0.1/32"}), "GET", "/v1/account/balance", nil); r.Status != 200 {
		t.Fatalf("inside allowlist: %d", r.Status)
	}
	if r := e.admin("POST", "/accounts/"+acct.ID+"/keys", map[string]any{"name": "ip", "permissions": []string{"*"}, "ipAllowlist": []string{"nope"}}); r.Status != 400 {
		t.Fatalf("bad CIDR: %d", r.Status)
	}
}

// TestRateLimit runs its own app: the anonymous flood below spends the
// process's per-IP budget (one for every test, all from 127.0.0.1), which
// must be the default 100/min here and must not starve other tests.
func TestRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	acct := e.merchant()
	r := e.admin("POST", "/accounts/"+acct.ID+"/keys", map[string]any{"name": "slow", "permissions": []string{"*"}, "rateLimitPerMinute": 5})
	key := r.m(t)["key"].(string)
	for i := range 5 {
		got := e.call(key, "GET", "/v1/account/balance", nil)
		if got.Status != 200 || got.Header.Get("RateLimit-Remaining") != string(rune('4'-i)) {
			t.Fatalf("request %d: %d remaining %q", i, got.Status, got.Header.Get("RateLimit-Remaining"))
		}
	}
	got := e.call(key, "GET", "/v1/account/balance", nil)
	if got.Status != 429 || got.Success || got.Header.Get("Retry-After") == "" || got.Header.Get("RateLimit-Limit") != "5" {
		t.Fatalf("over the limit: %d %v", got.Status, got.Header)
	}
	// Other keys are not affected; anonymous callers are limited per IP (100/min).
	if got := e.call(acct.Key, "GET", "/v1/account/balance", nil); got.Status != 200 {
		t.Fatalf("other key: %d", got.Status)
	}
	var last resp
	for range 101 {
		last = e.request("GET", "/v1/account/balance", nil, nil)
	}
	if last.Status != 429 {
		t.Fatalf("anonymous flood: %d", last.Status)
	}
}

func TestAdminAPI(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	if r := e.request("POST", "/admin/v1/accounts", nil, map[string]any{}); r.Status != 401 {
		t.Fatalf("admin without token: %d", r.Status)
	}
	if r := e.request("POST", "/admin/v1/accounts", map[string]string{"X-Admin-Token": "wrong"}, map[string]any{}); r.Status != 401 {
		t.Fatalf("admin with wrong token: %d", r.Status)
	}
	m := e.merchant()
	for _, bad := range []map[string]any{
		{"name": "X", "email": "x@example.com", "document": "123"},
		{"name": "X", "email": "not-an-email", "document": "52998224725"},
		{"name": "X", "email": m.Email, "document": "52998224725"},
		{"email": "y@example.com", "document": "52998224725"},
	} {
		if r := e.admin("POST", "/accounts", bad); r.Status != 400 {
			t.Errorf("create account %v: %d", bad, r.Status)
		}
	}
	// A fresh email each run: the shared database keeps earlier runs' accounts.
	alfa := fmt.Sprintf("alfa-%d-%d@example.com", merchantSeq.Add(1), time.Now().UnixNano())
	if r := e.admin("POST", "/accounts", map[string]any{"name": "Alfa", "email": alfa, "document": "12.ABC.345/01DE-35"}); r.Status != 200 {
		t.Errorf("alphanumeric CNPJ: %d %s", r.Status, r.Message)
	}
	got := e.admin("PATCH", "/accounts/"+m.ID, map[string]any{"verified": true, "features": map[string]any{"fiscalInvoice": true}, "securityReviewThreshold": 5000})
	a := got.m(t)
	f := a["features"].(map[string]any)
	if got.Status != 200 || a["verified"] != true || f["fiscalInvoice"] != true || f["autoContest"] != true || a["securityReviewThreshold"] != 5000.0 {
		t.Fatalf("patch: %d %v", got.Status, a)
	}
	if r := e.admin("GET", "/accounts/acc_missing", nil); r.Status != 404 {
		t.Fatalf("missing account: %d", r.Status)
	}
	if r := e.admin("POST", "/accounts/"+m.ID+"/keys", map[string]any{"name": "k", "permissions": []string{"Bad Perm"}}); r.Status != 400 {
		t.Fatalf("bad permission: %d", r.Status)
	}

	// Adjustments: available and withdrawable at once; an overdraft is refused.
	if r := e.admin("POST", "/accounts/"+m.ID+"/adjustments", map[string]any{"amount": 50.5, "description": "Crédito"}); r.Status != 200 {
		t.Fatalf("adjust: %d %s", r.Status, r.Message)
	}
	if b := e.balance(m); b["available"] != 50.5 || b["withdrawable"] != 50.5 {
		t.Fatalf("after adjustment: %v", b)
	}
	if r := e.admin("POST", "/accounts/"+m.ID+"/adjustments", map[string]any{"amount": -60, "description": "Débito"}); r.Status != 400 {
		t.Fatalf("overdraft adjustment: %d", r.Status)
	}
	idem := map[string]string{"X-Admin-Token": adminToken, "Idempotency-Key": "adj-1"}
	for range 2 {
		if r := e.request("POST", "/admin/v1/accounts/"+m.ID+"/adjustments", idem, map[string]any{"amount": -0.5, "description": "Débito"}); r.Status != 200 {
			t.Fatalf("idempotent adjustment: %d %s", r.Status, r.Message)
		}
	}
	if b := e.balance(m); b["available"] != 50.0 {
		t.Fatalf("after idempotent adjustment: %v", b)
	}
	tx := e.call(m.Key, "GET", "/v1/account/transactions", nil).m(t)
	if tx["total"] != 2.0 {
		t.Fatalf("statement: %v", tx)
	}
	e.verifyLedger()
}

func TestHealth(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	for _, p := range []string{"/livez", "/readyz"} {
		if r := e.request("GET", p, nil, nil); r.Status != 200 {
			t.Errorf("%s: %d", p, r.Status)
		}
	}
	// Metrics are the operators': on the admin listener, not the merchant port.
	if r := e.request("GET", "/metrics", nil, nil); r.Status != 404 {
		t.Errorf("/metrics on the merchant listener: %d, want 404", r.Status)
	}
	res, err := http.Get("http://" + e.app.AdminAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("/metrics on the admin listener: %d", res.StatusCode)
	}
	if r := e.request("GET", "/v1/nothing-here", nil, nil); r.Status != 401 && r.Status != 404 {
		t.Errorf("unknown route: %d", r.Status)
	}
}
