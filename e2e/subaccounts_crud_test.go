package e2e

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestSubaccountCreateValidates: every bad field of a create is a 400 naming it.
func TestSubaccountCreateValidates(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.subMerchant()
	cases := []struct {
		field string
		value any
	}{
		{"cpf", "529.982.247-26"}, {"cpf", nil}, {"birthDate", "1990-13-01"}, {"birthDate", "2999-01-01"},
		{"postalCode", "0131010"}, {"postalCode", "01310-10a"}, {"externalReference", nil},
		{"externalReference", strings.Repeat("r", 65)}, {"fullName", ""}, {"personType", "XX"},
		{"portalPassword", nil}, // portalEmail without portalPassword
	}
	for _, c := range cases {
		b := pfBody()
		if c.value == nil {
			delete(b, c.field)
		} else {
			b[c.field] = c.value
		}
		if c.field == "portalPassword" {
			b["portalEmail"] = "only@example.com"
		}
		r := e.call(m.Key, "POST", "/v1/subaccount/create", b)
		if r.Status != 400 || !strings.Contains(r.Message, c.field) {
			t.Errorf("%s=%v: %d %s", c.field, c.value, r.Status, r.Message)
		}
	}
	// portalPassword without portalEmail, and a weak password.
	b := pfBody()
	b["portalPassword"] = "Str0ng!pass"
	if r := e.call(m.Key, "POST", "/v1/subaccount/create", b); r.Status != 400 || !strings.Contains(r.Message, "portalEmail") {
		t.Errorf("password alone: %d %s", r.Status, r.Message)
	}
	b = pfBody()
	b["portalEmail"], b["portalPassword"] = "weak@example.com", "alllowercase1!"
	if r := e.call(m.Key, "POST", "/v1/subaccount/create", b); r.Status != 400 || !strings.Contains(r.Message, "portalPassword") {
		t.Errorf("weak password: %d %s", r.Status, r.Message)
	}
	// A PJ needs multipart: JSON is a 400 naming the document.
	b = pfBody()
	b["personType"], b["cnpj"], b["companyName"] = "PJ", "11.222.333/0001-81", "ACME"
	if r := e.call(m.Key, "POST", "/v1/subaccount/create", b); r.Status != 400 || !strings.Contains(r.Message, "document") {
		t.Errorf("PJ by JSON: %d %s", r.Status, r.Message)
	}
	// externalReference is unique per account, not across accounts.
	b = pfBody()
	if r := e.call(m.Key, "POST", "/v1/subaccount/create", b); r.Status != 200 {
		t.Fatalf("create: %d %s", r.Status, r.Message)
	}
	if r := e.call(m.Key, "POST", "/v1/subaccount/create", b); r.Status != 400 || !strings.Contains(r.Message, "externalReference") {
		t.Errorf("duplicate externalReference: %d %s", r.Status, r.Message)
	}
	if r := e.call(e.subMerchant().Key, "POST", "/v1/subaccount/create", b); r.Status != 200 {
		t.Errorf("same reference in another account: %d %s", r.Status, r.Message)
	}
}

// TestSubaccountPJByMultipart: a PJ (alphanumeric CNPJ) with its proof document.
func TestSubaccountPJByMultipart(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.subMerchant()
	pdf := append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("x"), 1000)...)
	fields := map[string]string{"personType": "PJ", "fullName": "João Souza", "cpf": "52998224725",
		"birthDate": "1980-01-02", "postalCode": "20040002", "externalReference": fmt.Sprintf("pj-%d", subSeq.Add(1)),
		"cnpj": "12.ABC.345/01DE-35", "companyName": "ACME Comércio Ltda", "site": "https://acme.example.com"}
	r := e.multipartCreate(m.Key, fields, pdf)
	if r.Status != 200 {
		t.Fatalf("PJ create: %d %s", r.Status, r.Message)
	}
	v := r.m(t)
	company, _ := v["company"].(map[string]any)
	doc, _ := company["document"].(map[string]any)
	if v["personType"] != "PJ" || v["name"] != "ACME Comércio Ltda" || company["cnpj"] != "12ABC34501DE35" ||
		doc["contentType"] != "application/pdf" || doc["size"] != 1009.0 || len(doc["sha256"].(string)) != 64 {
		t.Fatalf("PJ view: %v", v)
	}
	fields["externalReference"] += "-2"
	for name, bad := range map[string]string{"cnpj": "12.ABC.345/01DE-36", "companyName": ""} {
		f := map[string]string{}
		for k, v := range fields {
			f[k] = v
		}
		f[name] = bad
		if r := e.multipartCreate(m.Key, f, pdf); r.Status != 400 || !strings.Contains(r.Message, name) {
			t.Errorf("%s=%q: %d %s", name, bad, r.Status, r.Message)
		}
	}
	if r := e.multipartCreate(m.Key, fields, nil); r.Status != 400 || !strings.Contains(r.Message, "document") {
		t.Errorf("no document: %d %s", r.Status, r.Message)
	}
	if r := e.multipartCreate(m.Key, fields, []byte("plain text, not a document")); r.Status != 400 || !strings.Contains(r.Message, "document") {
		t.Errorf("text document: %d %s", r.Status, r.Message)
	}
	if r := e.multipartCreate(m.Key, fields, bytes.Repeat([]byte("%PDF"), 300_000)); r.Status != 400 {
		t.Errorf("oversized document: %d %s", r.Status, r.Message)
	}
}

// TestSubaccountReadUpdateDelete: get, get-by-ref (lean), list with paging
// and status, update, delete refused while money is held.
func TestSubaccountReadUpdateDelete(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.subMerchant()
	b := pfBody()
	r := e.call(m.Key, "POST", "/v1/subaccount/create", b)
	v := r.m(t)
	id, ref := v["id"].(string), b["externalReference"].(string)
	if v["status"] != "ACTIVE" || v["lockMode"] != "NONE" || v["externalReference"] != ref || v["balance"] == nil {
		t.Fatalf("created: %v", v)
	}
	if _, has := v["updatedAt"]; has {
		t.Fatal("a sub-account's answer carries updatedAt (the spec's rule 4 omits it)")
	}
	lean := e.call(m.Key, "GET", "/v1/subaccount/get-by-ref/"+ref, nil).m(t)
	if len(lean) != 6 || lean["id"] != id || lean["name"] != "Maria Silva" || lean["status"] != "ACTIVE" ||
		lean["lockMode"] != "NONE" || lean["balance"].(map[string]any)["spendablePadrao"] != 0.0 {
		t.Fatalf("get-by-ref: %v", lean)
	}
	if r := e.call(m.Key, "GET", "/v1/subaccount/get-by-ref/nope", nil); r.Status != 404 {
		t.Fatalf("unknown ref: %d", r.Status)
	}
	for i := 0; i < 2; i++ {
		e.createSub(m)
	}
	upd := e.call(m.Key, "POST", "/v1/subaccount/update", map[string]any{"id": id, "name": "Loja Centro", "status": "DISABLED"})
	if u := upd.m(t); upd.Status != 200 || u["name"] != "Loja Centro" || u["status"] != "DISABLED" {
		t.Fatalf("update: %d %v", upd.Status, upd.Message)
	}
	for _, bad := range []map[string]any{{"id": id, "status": "BLOCKED"}, {"id": id}, {"id": id, "name": ""}, {"name": "x"}} {
		if r := e.call(m.Key, "POST", "/v1/subaccount/update", bad); r.Status != 400 {
			t.Errorf("update %v: %d %s", bad, r.Status, r.Message)
		}
	}
	page := e.call(m.Key, "GET", "/v1/subaccount/list?page=1&pageSize=2", nil).m(t)
	if page["total"] != 3.0 || page["pages"] != 2.0 || len(page["items"].([]any)) != 2 {
		t.Fatalf("list: %v", page)
	}
	disabled := e.call(m.Key, "GET", "/v1/subaccount/list?status=DISABLED", nil).m(t)
	if disabled["total"] != 1.0 || disabled["items"].([]any)[0].(map[string]any)["id"] != id {
		t.Fatalf("list DISABLED: %v", disabled)
	}
	if r := e.call(m.Key, "GET", "/v1/subaccount/list?status=NOPE", nil); r.Status != 400 || !strings.Contains(r.Message, "status") {
		t.Fatalf("list bad status: %d %s", r.Status, r.Message)
	}
	// Delete: refused while the sub-account holds money, then done.
	full := e.createSub(m)
	e.fund(m, 10)
	if r := e.call(m.Key, "POST", "/v1/subaccount/add-balance", map[string]any{"id": full, "amount": 1, "externalReference": "del-" + full}); r.Status != 200 {
		t.Fatalf("add: %d %s", r.Status, r.Message)
	}
	// A list page reads every item's balance (in one batch).
	for _, it := range e.call(m.Key, "GET", "/v1/subaccount/list?pageSize=100", nil).m(t)["items"].([]any) {
		item := it.(map[string]any)
		want := 0.0
		if item["id"] == full {
			want = 1
		}
		if b := item["balance"].(map[string]any); b["availablePadrao"] != want || b["spendablePadrao"] != want {
			t.Fatalf("listed balance of %v: %v, want %v", item["id"], b, want)
		}
	}
	if r := e.call(m.Key, "POST", "/v1/subaccount/delete", map[string]any{"id": full}); r.Status != 400 {
		t.Fatalf("delete with balance: %d %s", r.Status, r.Message)
	}
	del := e.call(m.Key, "POST", "/v1/subaccount/delete", map[string]any{"id": id})
	if del.Status != 200 || del.m(t)["id"] != id {
		t.Fatalf("delete: %d %s", del.Status, del.Data)
	}
	if r := e.call(m.Key, "GET", "/v1/subaccount/get/"+id, nil); r.Status != 404 {
		t.Fatalf("get after delete: %d", r.Status)
	}
	// Balance by externalReference, and without either parameter.
	if r := e.call(m.Key, "GET", "/v1/subaccount/balance?externalReference=nope", nil); r.Status != 404 {
		t.Fatalf("balance unknown ref: %d", r.Status)
	}
	if r := e.call(m.Key, "GET", "/v1/subaccount/balance", nil); r.Status != 400 || !strings.Contains(r.Message, "id") {
		t.Fatalf("balance without id: %d %s", r.Status, r.Message)
	}
	e.verifyLedger()
}
