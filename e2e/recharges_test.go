package e2e

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/jangada/jangada/api"
	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/domain"
)

// rechargeMerchant is a merchant with mobile recharge on, funded.
func (e *env) rechargeMerchant(funds float64) merchant {
	e.t.Helper()
	m := e.merchant()
	e.enable(m, domain.FeatureMobileRecharge)
	if funds > 0 {
		e.fund(m, funds)
	}
	return m
}

func (e *env) createRecharge(m merchant, phone string, amount float64) map[string]any {
	e.t.Helper()
	r := e.call(m.Key, "POST", "/v1/mobile-recharge/create", map[string]any{"phone": phone, "amount": amount})
	if r.Status != 200 {
		e.t.Fatalf("create recharge: %d %s", r.Status, r.Message)
	}
	return r.m(e.t)
}

func (e *env) waitRecharge(m merchant, id, want string) map[string]any {
	e.t.Helper()
	var got map[string]any
	eventually(e.t, "recharge "+id+" to be "+want, func() bool {
		got = e.call(m.Key, "GET", "/v1/mobile-recharge/get/"+id, nil).m(e.t)
		return got["status"] == want
	})
	return got
}

// productRouteCall calls one route of the route table about record id with
// a body its validation accepts.
func (e *env) productRouteCall(key string, r api.Route, id string) resp {
	e.t.Helper()
	path := "/v1" + strings.NewReplacer(":id", id, ":phone", "11937654321").Replace(r.Path)
	body := map[string]any{"phone": "11937654321", "amount": 20, "payCurrency": "ETH",
		"address": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}
	if r.Method == "GET" {
		return e.call(key, "GET", path, nil)
	}
	return e.call(key, r.Method, path, body)
}

// TestRechargeAndCryptoRoutesAreGatedAndScoped: with its feature off,
// every route of each product answers 403 (whatever the body); another
// account's record is 404 on every route that names one.
func TestRechargeAndCryptoRoutesAreGatedAndScoped(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	off := e.merchant()
	owner, other := e.merchant(), e.merchant()
	for _, m := range []merchant{owner, other} {
		e.enable(m, domain.FeatureMobileRecharge, domain.FeatureCrypto)
		e.fund(m, 100)
	}
	rec := e.createRecharge(owner, "11937654321", 20)["id"].(string)
	dep := e.call(owner.Key, "POST", "/v1/payment-crypto/create", map[string]any{"amount": 10, "payCurrency": "BTC"}).m(t)["id"].(string)
	wd := e.call(owner.Key, "POST", "/v1/transfer-crypto-auto/create", map[string]any{"amount": 10, "payCurrency": "ETH",
		"address": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}).m(t)["id"].(string)
	recordOf := map[string]string{"/mobile-recharge/": rec, "/sandbox/mobile-recharge/": rec, "/payment-crypto/": dep,
		"/sandbox/payment-crypto/": dep, "/transfer-crypto/": wd, "/sandbox/transfer-crypto/": wd}
	counts := map[string]int{}
	for _, r := range api.Routes() {
		if r.Feature != domain.FeatureMobileRecharge && r.Feature != domain.FeatureCrypto {
			continue
		}
		counts[r.Feature]++
		if got := e.productRouteCall(off.Key, r, "x"); got.Status != 403 {
			t.Errorf("%s %s with the feature off: %d %s", r.Method, r.Path, got.Status, got.Message)
		}
		if got := e.call(off.Key, r.Method, "/v1"+strings.NewReplacer(":id", "x", ":phone", "x").Replace(r.Path), "{}"); got.Status != 403 {
			t.Errorf("%s %s with the feature off and an empty body: %d", r.Method, r.Path, got.Status)
		}
		if !strings.Contains(r.Path, ":id") {
			continue
		}
		id := ""
		for prefix, rid := range recordOf {
			if strings.HasPrefix(r.Path, prefix) {
				id = rid
			}
		}
		if got := e.productRouteCall(other.Key, r, id); got.Status != 404 {
			t.Errorf("%s %s on another account's record: %d %s", r.Method, r.Path, got.Status, got.Message)
		}
	}
	if counts[domain.FeatureMobileRecharge] != 6 || counts[domain.FeatureCrypto] != 11 {
		t.Fatalf("gated routes %v, want 5 recharge routes and its sandbox route, 8 crypto routes and 3 sandbox routes", counts)
	}
	// Nothing of the owner's moved; the other account lists none of it.
	if got := e.call(owner.Key, "GET", "/v1/mobile-recharge/get/"+rec, nil).m(t); got["status"] != "PENDING" {
		t.Fatalf("owner's recharge: %v", got)
	}
	for _, path := range []string{"/v1/mobile-recharge/list", "/v1/payment-crypto/list", "/v1/transfer-crypto/list"} {
		if got := e.call(other.Key, "GET", path, nil); got.Status != 200 || got.m(t)["total"] != 0.0 {
			t.Fatalf("other's %s: %d %s", path, got.Status, got.Data)
		}
	}
	e.verifyLedger()
}

// TestMobileRechargeLifecycle: provider, bad input, create (paid at once
// from withdrawable money), delivery, cancellation with the money back
// exactly, a failed delivery, list and get.
func TestMobileRechargeLifecycle(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.rechargeMerchant(100)
	p := e.call(m.Key, "GET", "/v1/mobile-recharge/provider/(11)%2093765-4321", nil)
	if p.Status != 200 {
		t.Fatalf("provider: %d %s", p.Status, p.Message)
	}
	if pm := p.m(t); pm["phone"] != "11937654321" || pm["operator"] != "VIVO" || fmt.Sprint(pm["amounts"]) != "[15 20 25 30 35 40 50 100]" {
		t.Fatalf("provider answer %v", pm)
	}
	for path, want := range map[string]string{
		"/v1/mobile-recharge/provider/1133334444":  "phone must have a two-digit area code",
		"/v1/mobile-recharge/provider/20987654321": "phone has area code 20",
	} {
		if r := e.call(m.Key, "GET", path, nil); r.Status != 400 || !strings.HasPrefix(r.Message, want) {
			t.Errorf("%s: %d %s", path, r.Status, r.Message)
		}
	}
	for _, c := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"phone": "11937654321", "amount": 10}, "amount must be one of the amounts offered for this number: 15.00, 20.00"},
		{map[string]any{"phone": "11837654321", "amount": 20}, "phone must be a mobile number"},
		{map[string]any{"phone": "11937654321", "amount": 200}, "amount must be one of"},
	} {
		if r := e.call(m.Key, "POST", "/v1/mobile-recharge/create", c.body); r.Status != 400 || !strings.HasPrefix(r.Message, c.want) {
			t.Errorf("create %v: %d %s", c.body, r.Status, r.Message)
		}
	}
	wantBalance(t, e, m, 100, 0, 100)

	// Delivered.
	rec := e.createRecharge(m, "+55 21 99765-4321", 20) // 9 → OI
	id := rec["id"].(string)
	if rec["status"] != "PENDING" || rec["canBeCancelled"] != true || rec["operator"] != "OI" || rec["phone"] != "21997654321" ||
		rec["amount"] != 20.0 || rec["type"] != "MOBILE_RECHARGE" {
		t.Fatalf("created: %v", rec)
	}
	wantBalance(t, e, m, 80, 20, 80)
	if r := e.call(m.Key, "POST", "/v1/sandbox/mobile-recharge/"+id+"/complete", nil); r.Status != 200 || r.m(t)["outcome"] != "completed" {
		t.Fatalf("complete: %d %s", r.Status, r.Message)
	}
	done := e.waitRecharge(m, id, "COMPLETED")
	if done["canBeCancelled"] != false || done["completedAt"] == nil {
		t.Fatalf("delivered: %v", done)
	}
	wantBalance(t, e, m, 80, 0, 80)
	if r := e.call(m.Key, "POST", "/v1/mobile-recharge/cancel/"+id, nil); r.Status != 400 || !strings.Contains(r.Message, "can no longer be cancelled") {
		t.Fatalf("cancel after delivery: %d %s", r.Status, r.Message)
	}

	// Cancelled: the money returns exactly; a late delivery is refused.
	id2 := e.createRecharge(m, "11937654321", 35)["id"].(string)
	wantBalance(t, e, m, 45, 35, 45)
	c := e.call(m.Key, "POST", "/v1/mobile-recharge/cancel/"+id2, nil)
	if c.Status != 200 || c.m(t)["status"] != "CANCELED" || c.m(t)["canBeCancelled"] != false {
		t.Fatalf("cancel: %d %s %s", c.Status, c.Message, c.Data)
	}
	wantBalance(t, e, m, 80, 0, 80)
	if r := e.call(m.Key, "POST", "/v1/mobile-recharge/cancel/"+id2, nil); r.Status != 200 || r.m(t)["status"] != "CANCELED" {
		t.Fatalf("cancel again: %d %s", r.Status, r.Message)
	}
	if r := e.call(m.Key, "POST", "/v1/sandbox/mobile-recharge/"+id2+"/complete", nil); r.Status != 400 {
		t.Fatalf("delivery of a cancelled recharge: %d %s", r.Status, r.Message)
	}
	wantBalance(t, e, m, 80, 0, 80)

	// An inactive number: the operator fails it, the money returns.
	id3 := e.createRecharge(m, "11960000000", 10)["id"].(string) // 6 → TIM
	if r := e.call(m.Key, "POST", "/v1/sandbox/mobile-recharge/"+id3+"/complete", nil); r.Status != 200 || r.m(t)["outcome"] != "failed" {
		t.Fatalf("complete an inactive number: %d %s", r.Status, r.Message)
	}
	e.waitRecharge(m, id3, "FAILED")
	wantBalance(t, e, m, 80, 0, 80)

	// More than the withdrawable money: refused, nothing moved.
	if r := e.call(m.Key, "POST", "/v1/mobile-recharge/create", map[string]any{"phone": "11937654321", "amount": 100}); r.Status != 400 ||
		!strings.Contains(r.Message, "insufficient balance") {
		t.Fatalf("overdraft: %d %s", r.Status, r.Message)
	}
	l := e.call(m.Key, "GET", "/v1/mobile-recharge/list?status=CANCELED", nil).m(t)
	if l["total"] != 1.0 || l["items"].([]any)[0].(map[string]any)["id"] != id2 {
		t.Fatalf("list of cancelled: %v", l)
	}
	if got := e.call(m.Key, "GET", "/v1/mobile-recharge/list", nil).m(t); got["total"] != 3.0 {
		t.Fatalf("list: %v", got)
	}
	if types := eventTypes(t, e, id); len(types) != 0 {
		t.Fatalf("recharge events %v: the catalog has none", types)
	}
	e.verifyLedger()
}

// TestRechargeCancelRacingCompletion: a cancellation and the operator's
// delivery sent at once, many times: exactly one wins each time, and the
// balance is exact.
func TestRechargeCancelRacingCompletion(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	const n = 12
	m := e.rechargeMerchant(n * 20)
	ids := make([]string, n)
	for i := range ids {
		ids[i] = e.createRecharge(m, "11937654321", 20)["id"].(string)
	}
	cancelled := make([]int, n)
	// Every delivery and every cancel leave together (one start line, no
	// timed stagger): which side wins a round is up to the race itself; the
	// test only asks that each round has exactly one winner.
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			e.call(m.Key, "POST", "/v1/sandbox/mobile-recharge/"+id+"/complete", nil)
		}()
		go func() {
			defer wg.Done()
			<-start
			cancelled[i] = e.call(m.Key, "POST", "/v1/mobile-recharge/cancel/"+id, nil).Status
		}()
	}
	close(start)
	wg.Wait()
	delivered := 0
	for i, id := range ids {
		var got map[string]any
		eventually(t, "recharge "+id+" to conclude", func() bool {
			got = e.call(m.Key, "GET", "/v1/mobile-recharge/get/"+id, nil).m(t)
			return got["status"] != "PENDING"
		})
		switch {
		case cancelled[i] == 200 && got["status"] == "CANCELED":
		case cancelled[i] == 400 && got["status"] == "COMPLETED":
			delivered++
		default:
			t.Fatalf("recharge %s: cancel answered %d, stored %s", id, cancelled[i], got["status"])
		}
	}
	wantBalance(t, e, m, float64(n-delivered)*20, 0, float64(n-delivered)*20)
	t.Logf("%d of %d delivered, %d cancelled", delivered, n, n-delivered)
	e.verifyLedger()
}

// TestRechargeSandboxCompletesAfterTheSettleDelay: with auto-settlement the
// operator delivers a recharge after JANGADA_SANDBOX_SETTLE_DELAY; one
// cancelled inside the delay stays cancelled, its money back.
func TestRechargeSandboxCompletesAfterTheSettleDelay(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.SandboxAutoSettle, cfg.SandboxSettle = true, 3*time.Second
	e := startApp(t, cfg, app.Options{API: true, Worker: true})
	m := e.rechargeMerchant(100)
	kept := e.createRecharge(m, "11937654321", 20)["id"].(string)
	gone := e.createRecharge(m, "11937654321", 30)["id"].(string)
	if r := e.call(m.Key, "POST", "/v1/mobile-recharge/cancel/"+gone, nil); r.Status != 200 {
		t.Fatalf("cancel within the delay: %d %s", r.Status, r.Message)
	}
	e.waitRecharge(m, kept, "COMPLETED")
	// The cancelled one's delivery was withdrawn: well past the delay it is
	// still cancelled (its network workflow was cancelled).
	// (It was never armed when the cancel committed before the recharge was
	// submitted: the submission found it cancelled.)
	eventually(t, "the cancelled recharge's delivery to be withdrawn", func() bool {
		desc, err := temporalClient.DescribeWorkflowExecution(t.Context(), "sandbox/recharge/"+gone, "")
		var nf *serviceerror.NotFound
		return errors.As(err, &nf) || (err == nil && desc.WorkflowExecutionInfo.CloseTime != nil)
	})
	if got := e.call(m.Key, "GET", "/v1/mobile-recharge/get/"+gone, nil).m(t); got["status"] != "CANCELED" {
		t.Fatalf("cancelled recharge: %v", got)
	}
	wantBalance(t, e, m, 80, 0, 80)
	e.verifyLedger()
}

// TestRechargeAndCryptoHostileInput: with both products on, hostile ids,
// numbers, queries and bodies on every route of theirs answer 4xx with the
// envelope (or 200), never 5xx.
func TestRechargeAndCryptoHostileInput(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	e.enable(m, domain.FeatureMobileRecharge, domain.FeatureCrypto)
	e.fund(m, 50)
	ids := []string{"%00", "%ff%fe", strings.Repeat("9", 300), "..%2F..%2Fetc", "%27%3B%20DROP%20TABLE%20accounts%3B--", "-1", "+55%20(11)%2093765-4321"}
	bodies := []string{"", "{", "[]", "null", `{"amount": "%00"}`, `{"amount": 1e999, "phone": "\u0000"}`,
		`{"phone": "` + strings.Repeat("9", 100_000) + `", "amount": 20}`, "{\"phone\": \"\xff\xfe\", \"amount\": 20}",
		`{"amount": 10, "payCurrency": "\u0000"}`, `{"amount": 10, "payCurrency": "BTC", "address": "` + strings.Repeat("1", 5000) + `"}`,
		`{"amount": 10, "payCurrency": "XRP", "address": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "extraId": "99999999999999999999999"}`,
		`{"amount": 10, "payCurrency": "ETH", "address": "0x` + strings.Repeat("g", 40) + `"}`,
		`{"amount": 10, "payCurrency": "BTC", "address": "bc1` + strings.Repeat("q", 95) + `"}`,
		`{"amount": 10, "payCurrency": "BTC", "address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "quoteId": "\u0000"}`}
	for _, r := range api.Routes() {
		if r.Feature != domain.FeatureMobileRecharge && r.Feature != domain.FeatureCrypto {
			continue
		}
		paths := []string{"/v1" + r.Path}
		if strings.Contains(r.Path, ":") {
			paths = paths[:0]
			for _, id := range ids {
				paths = append(paths, "/v1"+strings.NewReplacer(":id", id, ":phone", id).Replace(r.Path))
			}
		}
		for _, path := range paths {
			for _, body := range append([]string{""}, bodies...) {
				if r.Method == "GET" && body != "" {
					break
				}
				res := e.call(m.Key, r.Method, path+"?page=%00&status=%ff", body)
				if res.Status >= 500 || (res.Status >= 400 && (res.Success || res.Message == "" || res.ReqID == "")) {
					t.Fatalf("%s %s body %.60q: %d %q", r.Method, path, body, res.Status, res.Message)
				}
			}
		}
	}
	e.verifyLedger()
}
