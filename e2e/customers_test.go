package e2e

import (
	"strings"
	"testing"
)

// TestCustomers: the customer routes through HTTP and PostgreSQL — create
// (type inferred, alphanumeric CNPJ), a document unique per account, an
// idempotent create, get, list filters (search, status in Portuguese and
// English, type, pageSize over 100), update, delete, and another account's
// customer answered 404 on every route.
func TestCustomers(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, other := e.merchant(), e.merchant()

	create := func(key string, body map[string]any, headers ...string) resp {
		t.Helper()
		h := map[string]string{"X-API-Key": key}
		for i := 0; i+1 < len(headers); i += 2 {
			h[headers[i]] = headers[i+1]
		}
		return e.request("POST", "/v1/customers/create", h, body)
	}
	// "sp": the state is read in any case, beyond the document's enum.
	maria := e.lenient().request("POST", "/v1/customers/create", map[string]string{"X-API-Key": m.Key}, map[string]any{"name": "Maria Silva",
		"email": "maria@example.com", "document": "529.982.247-25", "phone": "(11) 98765-4321", "state": "sp", "city": "São Paulo",
		"transactions": 99, "volume": 1000})
	if maria.Status != 200 {
		t.Fatalf("create: %d %s", maria.Status, maria.Message)
	}
	mc := maria.m(t)
	if mc["type"] != "PF" || mc["status"] != "ACTIVE" || mc["document"] != "52998224725" || mc["state"] != "SP" ||
		mc["phone"] != "11987654321" || mc["transactions"] != float64(0) || mc["volume"] != float64(0) {
		t.Fatalf("created customer %v: want PF, ACTIVE, bare document, SP, phone digits, read-only counts at 0", mc)
	}
	mariaID := mc["id"].(string)

	firma := create(m.Key, map[string]any{"name": "Firma Ltda", "email": "contato@firma.com.br", "document": "12.ABC.345/01DE-35",
		"status": "Bloqueado"}, "Idempotency-Key", "firma-1")
	if firma.Status != 200 || firma.m(t)["type"] != "PJ" || firma.m(t)["status"] != "BLOCKED" {
		t.Fatalf("alphanumeric CNPJ: %d %s %s", firma.Status, firma.Message, firma.Data)
	}
	firmaID := firma.m(t)["id"].(string)
	again := create(m.Key, map[string]any{"name": "Firma Ltda", "email": "contato@firma.com.br", "document": "12.ABC.345/01DE-35",
		"status": "Bloqueado"}, "Idempotency-Key", "firma-1")
	if again.Status != 200 || again.m(t)["id"] != firmaID {
		t.Fatalf("retry under the same Idempotency-Key: %d %s %s, want the first customer", again.Status, again.Message, again.Data)
	}

	// Bad input: a 400 naming the field.
	for field, body := range map[string]map[string]any{
		"document": {"name": "X", "email": "x@example.com", "document": "529.982.247-25"}, // taken in this account
		"email":    {"name": "X", "document": "11.444.777/0001-61"},
		"state":    {"name": "X", "email": "x@example.com", "document": "11.444.777/0001-61", "state": "XX"},
		"type":     {"name": "X", "email": "x@example.com", "document": "11.444.777/0001-61", "type": "PF"},
	} {
		if r := create(m.Key, body); r.Status != 400 || !strings.HasPrefix(r.Message, field+" ") {
			t.Errorf("bad %s: %d %s", field, r.Status, r.Message)
		}
	}
	// The same document in another account is another customer.
	if r := create(other.Key, map[string]any{"name": "Maria", "email": "m@example.com", "document": "52998224725"}); r.Status != 200 {
		t.Fatalf("same document in another account: %d %s", r.Status, r.Message)
	}

	list := func(key, query string) (int, []string, string) {
		t.Helper()
		r := e.call(key, "GET", "/v1/customers/list"+query, nil)
		if r.Status != 200 {
			return r.Status, nil, r.Message
		}
		var page struct {
			Items []struct{ ID string } `json:"items"`
			Total int                   `json:"total"`
		}
		r.into(t, &page)
		var ids []string
		for _, it := range page.Items {
			ids = append(ids, it.ID)
		}
		if page.Total != len(ids) && !strings.Contains(query, "page=") {
			t.Errorf("list %s: total %d for %d items", query, page.Total, len(ids))
		}
		return 200, ids, ""
	}
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"", []string{firmaID, mariaID}},
		{"?search=silva", []string{mariaID}},
		{"?search=529.982", []string{mariaID}},
		{"?search=firma.com", []string{firmaID}},
		{"?status=Bloqueado", []string{firmaID}},
		{"?status=blocked", []string{firmaID}},
		{"?status=Ativo", []string{mariaID}},
		{"?type=PJ", []string{firmaID}},
		{"?type=pf&status=active", []string{mariaID}},
		{"?page=2&pageSize=1", []string{mariaID}},
	} {
		status, ids, msg := list(m.Key, tt.query)
		if status != 200 || strings.Join(ids, ",") != strings.Join(tt.want, ",") {
			t.Errorf("list%s: %d %s %v, want %v", tt.query, status, msg, ids, tt.want)
		}
	}
	for query, field := range map[string]string{"?pageSize=101": "pageSize", "?status=Suspenso": "status", "?type=CPF": "type"} {
		if status, _, msg := list(m.Key, query); status != 400 || !strings.HasPrefix(msg, field+" ") {
			t.Errorf("list%s: %d %s, want a 400 naming %s", query, status, msg, field)
		}
	}

	// Update: a partial change; a document another customer has is a 400.
	up := e.call(m.Key, "PATCH", "/v1/customers/update/"+mariaID, map[string]any{"status": "Inativo", "whatsapp": "+55 21 99876-5432"})
	if up.Status != 200 || up.m(t)["status"] != "INACTIVE" || up.m(t)["whatsapp"] != "5521998765432" || up.m(t)["name"] != "Maria Silva" {
		t.Fatalf("update: %d %s %s", up.Status, up.Message, up.Data)
	}
	if r := e.call(m.Key, "PATCH", "/v1/customers/update/"+mariaID, map[string]any{"document": "12ABC34501DE35"}); r.Status != 400 || !strings.HasPrefix(r.Message, "document ") {
		t.Errorf("update to another customer's document: %d %s", r.Status, r.Message)
	}

	// Another account's customer: 404 on every route.
	for _, r := range []resp{
		e.call(other.Key, "GET", "/v1/customers/get/"+mariaID, nil),
		e.call(other.Key, "PATCH", "/v1/customers/update/"+mariaID, map[string]any{"name": "Hijack"}),
		e.call(other.Key, "DELETE", "/v1/customers/delete/"+mariaID, nil),
	} {
		if r.Status != 404 {
			t.Errorf("another account's customer: %d %s, want 404", r.Status, r.Message)
		}
	}
	if r := e.call(m.Key, "GET", "/v1/customers/get/"+mariaID, nil); r.Status != 200 || r.m(t)["name"] != "Maria Silva" {
		t.Fatalf("get after the other account's attempts: %d %s %s", r.Status, r.Message, r.Data)
	}

	// Delete: gone from get and list, and its document is free again.
	if r := e.call(m.Key, "DELETE", "/v1/customers/delete/"+mariaID, nil); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Message)
	}
	if r := e.call(m.Key, "GET", "/v1/customers/get/"+mariaID, nil); r.Status != 404 {
		t.Errorf("get after delete: %d", r.Status)
	}
	if _, ids, _ := list(m.Key, ""); strings.Join(ids, ",") != firmaID {
		t.Errorf("list after delete: %v", ids)
	}
	if r := create(m.Key, map[string]any{"name": "Maria Silva", "email": "maria@example.com", "document": "52998224725"}); r.Status != 200 || r.m(t)["id"] == mariaID {
		t.Errorf("re-create with a deleted customer's document: %d %s", r.Status, r.Message)
	}
	// A key without the permission: 403.
	reader := e.keyFor(m, "customers/get")
	if r := create(reader.Key, map[string]any{"name": "X", "email": "x@example.com", "document": "11.444.777/0001-61"}); r.Status != 403 {
		t.Errorf("create without customers/create: %d %s", r.Status, r.Message)
	}
}
