package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestProducts: the product routes through HTTP and PostgreSQL — the three
// delivery types, a TEXT_LINES stock shown as counts, a sku unique per
// account, bad deliveries refused naming the field, list filters, update
// of the stock, delete, and another account's product answered 404.
func TestProducts(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, other := e.merchant(), e.merchant()
	create := func(key string, body any) resp {
		t.Helper()
		return e.call(key, "POST", "/v1/products/create", body)
	}
	type delivery struct {
		Type           string `json:"type"`
		RedirectURL    string `json:"redirectUrl"`
		RichContent    string `json:"richContent"`
		LinesText      string `json:"linesText"`
		LinesAvailable *int   `json:"linesAvailable"`
		LinesDelivered *int   `json:"linesDelivered"`
	}
	type product struct {
		ID, Name, Status string
		SKU              *string
		Price            *json.Number
		Deliveries       []delivery
	}
	read := func(r resp) product {
		t.Helper()
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Message)
		}
		var p product
		r.into(t, &p)
		return p
	}

	kit := read(create(m.Key, map[string]any{"name": "Kit Completo", "sku": "KIT-1", "price": 97.5, "description": "Curso e licença",
		"deliveries": []map[string]any{
			{"type": "LINK", "redirectUrl": "https://cursos.example.com/acesso"},
			{"type": "TEXT_INFINITE", "richContent": "Bem-vindo ao curso!"},
			{"type": "TEXT_LINES", "linesText": "LIC-001\nLIC-002\n\nLIC-003\n"},
		}}))
	if kit.Status != "ACTIVE" || kit.Price == nil || kit.Price.String() != "97.50" || len(kit.Deliveries) != 3 {
		t.Fatalf("created product %+v", kit)
	}
	lines := kit.Deliveries[2]
	if lines.LinesText != "" || lines.LinesAvailable == nil || *lines.LinesAvailable != 3 || *lines.LinesDelivered != 0 {
		t.Fatalf("TEXT_LINES shows %+v: want 3 available, 0 delivered and no lines", lines)
	}
	book := read(e.lenient().call(m.Key, "POST", "/v1/products/create", map[string]any{"name": "E-book", "status": "inactive"})) // any case

	// Bad input: a 400 naming the field.
	for field, body := range map[string]map[string]any{
		"sku":                       {"name": "Outro", "sku": "KIT-1"},
		"name":                      {"sku": "X"},
		"deliveries[0].type":        {"name": "X", "deliveries": []map[string]any{{"type": "DOWNLOAD"}}},
		"deliveries[0].redirectUrl": {"name": "X", "deliveries": []map[string]any{{"type": "LINK", "redirectUrl": "cursos.example.com"}}},
		"deliveries[1].redirectUrl": {"name": "X", "deliveries": []map[string]any{{"type": "TEXT_INFINITE", "richContent": "a"},
			{"type": "LINK", "redirectUrl": "ftp://example.com/x"}}},
		"price": {"name": "X", "price": 0},
	} {
		if r := create(m.Key, body); r.Status != 400 || !strings.HasPrefix(r.Message, field+" ") {
			t.Errorf("bad %s: %d %s", field, r.Status, r.Message)
		}
	}
	if r := create(other.Key, map[string]any{"name": "Kit", "sku": "KIT-1"}); r.Status != 200 {
		t.Errorf("the same sku in another account: %d %s", r.Status, r.Message)
	}

	list := func(query string) []string {
		t.Helper()
		r := e.call(m.Key, "GET", "/v1/products/list"+query, nil)
		if r.Status != 200 {
			t.Fatalf("list%s: %d %s", query, r.Status, r.Message)
		}
		var page struct{ Items []product }
		r.into(t, &page)
		var ids []string
		for _, p := range page.Items {
			ids = append(ids, p.ID)
		}
		return ids
	}
	for query, want := range map[string][]string{
		"":                 []string{book.ID, kit.ID},
		"?search=kit-1":    {kit.ID},
		"?search=licen":    {kit.ID},
		"?status=INACTIVE": {book.ID},
		"?status=active":   {kit.ID},
	} {
		if got := list(query); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("list%s = %v, want %v", query, got, want)
		}
	}
	if r := e.call(m.Key, "GET", "/v1/products/list?pageSize=101", nil); r.Status != 400 || !strings.HasPrefix(r.Message, "pageSize ") {
		t.Errorf("pageSize 101: %d %s", r.Status, r.Message)
	}

	// Update: a new stock replaces the lines left; sku taken is a 400.
	up := read(e.call(m.Key, "PATCH", "/v1/products/update/"+kit.ID, map[string]any{"price": 120,
		"deliveries": []map[string]any{{"type": "TEXT_LINES", "linesText": "NEW-1\nNEW-2\nNEW-3\nNEW-4"}}}))
	if up.Price.String() != "120.00" || len(up.Deliveries) != 1 || *up.Deliveries[0].LinesAvailable != 4 || up.Name != "Kit Completo" {
		t.Fatalf("updated product %+v", up)
	}
	if r := e.call(m.Key, "PATCH", "/v1/products/update/"+book.ID, map[string]any{"sku": "KIT-1"}); r.Status != 400 || !strings.HasPrefix(r.Message, "sku ") {
		t.Errorf("update to a taken sku: %d %s", r.Status, r.Message)
	}

	// Another account's product: 404 on every route.
	for _, r := range []resp{
		e.call(other.Key, "GET", "/v1/products/get/"+kit.ID, nil),
		e.call(other.Key, "PATCH", "/v1/products/update/"+kit.ID, map[string]any{"name": "Hijack"}),
		e.call(other.Key, "DELETE", "/v1/products/delete/"+kit.ID, nil),
	} {
		if r.Status != 404 {
			t.Errorf("another account's product: %d %s, want 404", r.Status, r.Message)
		}
	}
	if got := read(e.call(m.Key, "GET", "/v1/products/get/"+kit.ID, nil)); got.Name != "Kit Completo" {
		t.Fatalf("get: %+v", got)
	}
	if r := e.call(m.Key, "DELETE", "/v1/products/delete/"+kit.ID, nil); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Message)
	}
	if r := e.call(m.Key, "GET", "/v1/products/get/"+kit.ID, nil); r.Status != 404 {
		t.Errorf("get after delete: %d", r.Status)
	}
	if r := create(m.Key, map[string]any{"name": "Kit novo", "sku": "KIT-1"}); r.Status != 200 {
		t.Errorf("the sku of a deleted product: %d %s", r.Status, r.Message)
	}
}
