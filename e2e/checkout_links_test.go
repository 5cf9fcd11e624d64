package e2e

import (
	"net/http"
	"testing"
)

// Payment links: create, get, list, update, status and delete through
// HTTP and PostgreSQL; payPageUrl absolute under the public URL; another
// account's link is not found; a deleted link is gone.
func TestCheckoutLinksCRUD(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	other := e.merchant()

	r := e.call(m.Key, "POST", "/v1/payment-links/create", map[string]any{"name": "Curso de Go", "description": "Aulas gravadas",
		"allowedMethods": []string{"PIX"}, "fixedAmount": 49.90, "customerMode": "REQUIRED"})
	if r.Status != http.StatusOK {
		t.Fatalf("create: %d %s", r.Status, r.Message)
	}
	link := r.m(t)
	id := link["id"].(string)
	if link["payPageUrl"] != "http://jangada.test/pay/"+id || link["fixedAmount"] != 49.9 || link["status"] != "ACTIVE" {
		t.Fatalf("link = %v", link)
	}
	if _, has := link["updatedAt"]; has {
		t.Fatal("a link's answer carries updatedAt (the spec's rule 4 omits it)")
	}

	open := e.call(m.Key, "POST", "/v1/payment-links/create", map[string]any{"name": "Doação"}).m(t)
	if _, has := open["fixedAmount"]; has || open["customerMode"] != "NONE" {
		t.Fatalf("open-value link = %v", open)
	}

	if g := e.call(m.Key, "GET", "/v1/payment-links/get/"+id, nil); g.Status != 200 || g.m(t)["name"] != "Curso de Go" {
		t.Fatalf("get: %d %s", g.Status, g.Data)
	}
	if g := e.call(other.Key, "GET", "/v1/payment-links/get/"+id, nil); g.Status != http.StatusNotFound {
		t.Fatalf("another account's get: %d", g.Status)
	}
	for _, path := range []string{"/v1/payment-links/update/" + id, "/v1/payment-links/status/" + id} {
		if u := e.call(other.Key, "PATCH", path, map[string]any{"status": "INACTIVE"}); u.Status != http.StatusNotFound {
			t.Fatalf("another account's %s: %d", path, u.Status)
		}
	}

	u := e.call(m.Key, "PATCH", "/v1/payment-links/update/"+id, map[string]any{"name": "Curso de Go avançado", "fixedAmount": 59.90})
	if u.Status != 200 || u.m(t)["name"] != "Curso de Go avançado" || u.m(t)["fixedAmount"] != 59.9 || u.m(t)["customerMode"] != "REQUIRED" {
		t.Fatalf("update: %d %s", u.Status, u.Data)
	}
	if s := e.call(m.Key, "PATCH", "/v1/payment-links/status/"+id, map[string]any{"status": "INACTIVE"}); s.Status != 200 || s.m(t)["status"] != "INACTIVE" {
		t.Fatalf("status: %d %s", s.Status, s.Data)
	}

	var page struct {
		Items []map[string]any `json:"items"`
		Total int              `json:"total"`
	}
	e.call(m.Key, "GET", "/v1/payment-links/list?status=INACTIVE", nil).into(t, &page)
	if page.Total != 1 || page.Items[0]["id"] != id {
		t.Fatalf("inactive list = %+v", page)
	}
	e.call(m.Key, "GET", "/v1/payment-links/list?search=doa", nil).into(t, &page)
	if page.Total != 1 || page.Items[0]["id"] != open["id"] {
		t.Fatalf("search list = %+v", page)
	}
	e.call(other.Key, "GET", "/v1/payment-links/list", nil).into(t, &page)
	if page.Total != 0 {
		t.Fatalf("another account lists %d links", page.Total)
	}

	if d := e.call(other.Key, "DELETE", "/v1/payment-links/delete/"+id, nil); d.Status != http.StatusNotFound {
		t.Fatalf("another account's delete: %d", d.Status)
	}
	if d := e.call(m.Key, "DELETE", "/v1/payment-links/delete/"+id, nil); d.Status != 200 {
		t.Fatalf("delete: %d %s", d.Status, d.Message)
	}
	if g := e.call(m.Key, "GET", "/v1/payment-links/get/"+id, nil); g.Status != http.StatusNotFound {
		t.Fatalf("deleted link get: %d", g.Status)
	}
	if b := e.call(m.Key, "POST", "/v1/payment-links/create", map[string]any{"name": "x", "fixedAmount": 0.5}); b.Status != 400 || b.Message != "fixedAmount must be between 1.00 and 1000000.00" {
		t.Fatalf("bad amount: %d %s", b.Status, b.Message)
	}
}
