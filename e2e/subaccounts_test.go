package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jangada/jangada/api"
	"github.com/jangada/jangada/domain"
)

// enable switches account features on through the admin API.
func (e *env) enable(m merchant, features ...string) {
	e.t.Helper()
	f := map[string]any{}
	for _, name := range features {
		f[name] = true
	}
	if r := e.admin("PATCH", "/accounts/"+m.ID, map[string]any{"features": f}); r.Status != 200 {
		e.t.Fatalf("enable %v: %d %s", features, r.Status, r.Message)
	}
}

// subMerchant is a merchant with sub-accounts enabled.
func (e *env) subMerchant() merchant {
	e.t.Helper()
	m := e.merchant()
	e.enable(m, domain.FeatureSubaccounts)
	return m
}

var subSeq atomic.Int64

// pfBody is a valid PF create body with a fresh externalReference.
func pfBody() map[string]any {
	return map[string]any{"personType": "PF", "fullName": "Maria Silva", "cpf": "529.982.247-25",
		"birthDate": "1990-05-17", "postalCode": "01310-100", "externalReference": fmt.Sprintf("ref-%d", subSeq.Add(1))}
}

// createSub creates a PF sub-account and returns its id.
func (e *env) createSub(m merchant) string {
	e.t.Helper()
	r := e.call(m.Key, "POST", "/v1/subaccount/create", pfBody())
	if r.Status != 200 {
		e.t.Fatalf("create sub-account: %d %s", r.Status, r.Message)
	}
	return r.m(e.t)["id"].(string)
}

// subBalance reads the balance route of a sub-account.
func (e *env) subBalance(m merchant, id string) map[string]any {
	e.t.Helper()
	r := e.call(m.Key, "GET", "/v1/subaccount/balance?id="+id, nil)
	if r.Status != 200 {
		e.t.Fatalf("sub balance: %d %s", r.Status, r.Message)
	}
	return r.m(e.t)
}

func wantSubBalance(t *testing.T, e *env, m merchant, id string, spendable, available, locked, pending float64) {
	t.Helper()
	b := e.subBalance(m, id)
	if b["spendablePadrao"] != spendable || b["availablePadrao"] != available || b["lockedPadrao"] != locked || b["pendingPadrao"] != pending {
		t.Fatalf("sub-account %s balance %v, want spendable %v available %v locked %v pending %v", id, b, spendable, available, locked, pending)
	}
}

// multipartCreate posts a PJ create as multipart/form-data.
func (e *env) multipartCreate(key string, fields map[string]string, file []byte) resp {
	e.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	if file != nil {
		fw, _ := w.CreateFormFile("document", "contrato.pdf")
		fw.Write(file)
	}
	w.Close()
	req, _ := http.NewRequest("POST", e.base+"/v1/subaccount/create", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("X-API-Key", key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := resp{Status: res.StatusCode}
	if err := json.Unmarshal(raw, &r); err != nil {
		e.t.Fatalf("bad JSON %q", raw)
	}
	return r
}

// subRouteCall calls one sub-account route of the route table about sub-account id.
func (e *env) subRouteCall(key string, r api.Route, id string) resp {
	e.t.Helper()
	path := "/v1" + strings.NewReplacer(":id", id, ":ref", id).Replace(r.Path)
	if r.Method == "GET" {
		return e.call(key, "GET", path+"?id="+id, nil)
	}
	body := map[string]any{"id": id, "fromSubaccountId": id, "toSubaccountId": id + "x", "amount": 1,
		"externalReference": "x-" + id, "mode": "full", "name": "N", "status": "ACTIVE",
		"email": fmt.Sprintf("p%d@example.com", subSeq.Add(1)), "password": "Str0ng!pass"}
	if strings.HasSuffix(r.Path, "/create") {
		return e.call(key, "POST", path, pfBody())
	}
	return e.call(key, r.Method, path, body)
}

// TestSubaccountRoutesAreGatedAndScoped: without features.subaccounts every
// sub-account route answers 403 (whatever the body); another account's
// sub-account is 404 on every route that names one.
func TestSubaccountRoutesAreGatedAndScoped(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	off := e.merchant()
	owner := e.subMerchant()
	other := e.subMerchant()
	id := e.createSub(owner)
	n := 0
	for _, r := range api.Routes() {
		if !strings.HasPrefix(r.Path, "/subaccount/") {
			continue
		}
		n++
		if r.Feature != domain.FeatureSubaccounts {
			t.Errorf("%s %s is not gated by the sub-account feature", r.Method, r.Path)
		}
		if got := e.subRouteCall(off.Key, r, id); got.Status != 403 {
			t.Errorf("%s %s with the feature off: %d %s", r.Method, r.Path, got.Status, got.Message)
		}
		if got := e.call(off.Key, r.Method, "/v1"+strings.NewReplacer(":id", "x", ":ref", "x").Replace(r.Path), "{}"); got.Status != 403 {
			t.Errorf("%s %s with the feature off and an empty body: %d", r.Method, r.Path, got.Status)
		}
		if r.Path == "/subaccount/create" || r.Path == "/subaccount/list" {
			continue
		}
		if got := e.subRouteCall(other.Key, r, id); got.Status != 404 {
			t.Errorf("%s %s on another account's sub-account: %d %s", r.Method, r.Path, got.Status, got.Message)
		}
	}
	if n != 20 {
		t.Fatalf("%d sub-account routes, want the spec's 20", n)
	}
	// The owner still sees it untouched, and the other account lists nothing.
	if got := e.call(other.Key, "GET", "/v1/subaccount/list", nil); got.Status != 200 || got.m(t)["total"] != 0.0 {
		t.Fatalf("other's list: %d %s", got.Status, got.Data)
	}
	if got := e.call(owner.Key, "GET", "/v1/subaccount/get/"+id, nil); got.Status != 200 || got.m(t)["lockMode"] != "NONE" {
		t.Fatalf("owner's get: %d %s", got.Status, got.Data)
	}
	e.verifyLedger()
}
