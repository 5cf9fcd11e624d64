package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestCoupons: the coupon routes through HTTP and PostgreSQL — a code
// unique per account ignoring case, bad values refused naming the field,
// the discount math and every refusal reason of validate, expiry, list
// filters, update, delete, and another account's coupon answered 404.
func TestCoupons(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, other := e.merchant(), e.merchant()
	create := func(key string, body map[string]any) resp {
		t.Helper()
		return e.call(key, "POST", "/v1/coupons/create", body)
	}
	idOf := func(r resp) string {
		t.Helper()
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Message)
		}
		return r.m(t)["id"].(string)
	}
	prod := e.call(m.Key, "POST", "/v1/products/create", map[string]any{"name": "Curso"})
	prodID := idOf(prod)

	pct := create(m.Key, map[string]any{"code": "Promo15", "discountType": "PERCENT", "discountValue": 15})
	pctID := idOf(pct)
	if c := pct.m(t); c["discountValue"] != float64(15) || c["uses"] != float64(0) || c["status"] != "ACTIVE" || c["maxUses"] != nil {
		t.Fatalf("created coupon %v", c)
	}
	fixedID := idOf(create(m.Key, map[string]any{"code": "MENOS50", "discountType": "FIXED", "discountValue": 50, "maxUses": 2,
		"productIds": []string{prodID}, "paymentLinkIds": []string{"plink_a"}}))
	idOf(create(m.Key, map[string]any{"code": "PAUSADO", "discountType": "FIXED", "discountValue": 1, "status": "INACTIVE"}))

	// Bad input: a 400 naming the field; the code clashes in any case.
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for field, body := range map[string]map[string]any{
		"code":          {"code": "promo15", "discountType": "FIXED", "discountValue": 1},
		"discountValue": {"code": "X1", "discountType": "PERCENT", "discountValue": 100.5},
		"maxUses":       {"code": "X2", "discountType": "FIXED", "discountValue": 1, "maxUses": 0},
		"expiresAt":     {"code": "X3", "discountType": "FIXED", "discountValue": 1, "expiresAt": "2001-01-01T00:00:00Z"},
		"productIds":    {"code": "X4", "discountType": "FIXED", "discountValue": 1, "productIds": []string{"prod_nope"}, "expiresAt": future},
		"discountType":  {"code": "X5", "discountType": "BOGO", "discountValue": 1},
	} {
		if r := create(m.Key, body); r.Status != 400 || !strings.HasPrefix(r.Message, field+" ") {
			t.Errorf("bad %s: %d %s", field, r.Status, r.Message)
		}
	}
	if r := create(other.Key, map[string]any{"code": "PROMO15", "discountType": "FIXED", "discountValue": 1}); r.Status != 200 {
		t.Errorf("the code in another account: %d %s", r.Status, r.Message)
	}
	if r := e.call(other.Key, "POST", "/v1/coupons/create", map[string]any{"code": "Y", "discountType": "FIXED", "discountValue": 1,
		"productIds": []string{prodID}}); r.Status != 400 || !strings.HasPrefix(r.Message, "productIds ") {
		t.Errorf("another account's product in productIds: %d %s", r.Status, r.Message)
	}

	type quote struct {
		Valid          bool
		DiscountAmount float64
		FinalAmount    float64
		Reason         string
	}
	validate := func(key string, body map[string]any) quote {
		t.Helper()
		r := e.call(key, "POST", "/v1/coupons/validate", body)
		if r.Status != 200 {
			t.Fatalf("validate %v: %d %s", body, r.Status, r.Message)
		}
		var q quote
		r.into(t, &q)
		return q
	}
	for _, tt := range []struct {
		body     map[string]any
		discount float64
		final    float64
		reason   string
	}{
		{map[string]any{"code": "promo15", "amount": 100}, 15, 85, ""},
		{map[string]any{"code": "PROMO15", "amount": 0.1}, 0.02, 0.08, ""}, // 0.015 rounds half up
		{map[string]any{"code": "Promo15", "amount": 33.33}, 5, 28.33, ""}, // 4.9995 → 5.00
		{map[string]any{"code": "menos50", "amount": 30, "paymentLinkId": "plink_a", "productId": prodID}, 30, 0, ""},
		{map[string]any{"code": "menos50", "amount": 80, "paymentLinkId": "plink_a", "productId": prodID}, 50, 30, ""},
		{map[string]any{"code": "menos50", "amount": 80, "paymentLinkId": "plink_b", "productId": prodID}, 0, 80, "the coupon does not apply to this payment link"},
		{map[string]any{"code": "menos50", "amount": 80, "paymentLinkId": "plink_a"}, 0, 80, "the coupon applies only to certain products, and not to this one"},
		{map[string]any{"code": "pausado", "amount": 10}, 0, 10, "the coupon is inactive"},
		{map[string]any{"code": "NOPE", "amount": 10}, 0, 10, "no coupon with this code"},
	} {
		q := validate(m.Key, tt.body)
		if q.Valid != (tt.reason == "") || q.DiscountAmount != tt.discount || q.FinalAmount != tt.final || q.Reason != tt.reason {
			t.Errorf("validate %v = %+v, want discount %v final %v reason %q", tt.body, q, tt.discount, tt.final, tt.reason)
		}
	}
	// Another account's code is no coupon of this one.
	if q := validate(other.Key, map[string]any{"code": "MENOS50", "amount": 10}); q.Valid || q.Reason != "no coupon with this code" {
		t.Errorf("another account's code: %+v", q)
	}
	// Validating counts no use.
	if r := e.call(m.Key, "GET", "/v1/coupons/get/"+fixedID, nil); r.Status != 200 || r.m(t)["uses"] != float64(0) {
		t.Errorf("uses after validating: %d %s", r.Status, r.Data)
	}

	// Expiry: a coupon valid now stops applying once expiresAt passes.
	soon := time.Now().Add(1500 * time.Millisecond).UTC().Format(time.RFC3339Nano)
	idOf(create(m.Key, map[string]any{"code": "RELAMPAGO", "discountType": "PERCENT", "discountValue": 50, "expiresAt": soon}))
	if q := validate(m.Key, map[string]any{"code": "relampago", "amount": 10}); !q.Valid && !strings.HasPrefix(q.Reason, "the coupon expired") {
		t.Errorf("before expiry: %+v", q)
	}
	eventually(t, "the coupon expires", func() bool {
		q := validate(m.Key, map[string]any{"code": "relampago", "amount": 10})
		return !q.Valid && strings.HasPrefix(q.Reason, "the coupon expired at ") && q.FinalAmount == 10
	})

	// List filters; pageSize over 100.
	r := e.call(m.Key, "GET", "/v1/coupons/list?status=inactive", nil)
	var page struct {
		Items []struct{ Code string }
		Total int
	}
	r.into(t, &page)
	if r.Status != 200 || page.Total != 1 || page.Items[0].Code != "PAUSADO" {
		t.Errorf("list by status: %d %s", r.Status, r.Data)
	}
	r = e.call(m.Key, "GET", "/v1/coupons/list?search=promo", nil)
	r.into(t, &page)
	if r.Status != 200 || page.Total != 1 || page.Items[0].Code != "Promo15" {
		t.Errorf("list by search: %d %s", r.Status, r.Data)
	}
	if r := e.call(m.Key, "GET", "/v1/coupons/list?pageSize=101", nil); r.Status != 400 || !strings.HasPrefix(r.Message, "pageSize ") {
		t.Errorf("pageSize 101: %d %s", r.Status, r.Message)
	}

	// Update: the value is checked against the type; the code against the others.
	if r := e.call(m.Key, "PATCH", "/v1/coupons/update/"+pctID, map[string]any{"discountValue": 150}); r.Status != 400 || !strings.HasPrefix(r.Message, "discountValue ") {
		t.Errorf("a PERCENT coupon at 150: %d %s", r.Status, r.Message)
	}
	if r := e.call(m.Key, "PATCH", "/v1/coupons/update/"+fixedID, map[string]any{"code": "PROMO15"}); r.Status != 400 || !strings.HasPrefix(r.Message, "code ") {
		t.Errorf("update to a taken code: %d %s", r.Status, r.Message)
	}
	if r := e.call(m.Key, "PATCH", "/v1/coupons/update/"+pctID, map[string]any{"discountValue": 20, "maxUses": 10}); r.Status != 200 ||
		r.m(t)["discountValue"] != float64(20) || r.m(t)["maxUses"] != float64(10) {
		t.Errorf("update: %d %s %s", r.Status, r.Message, r.Data)
	}

	// Another account's coupon: 404 on every route.
	for _, r := range []resp{
		e.call(other.Key, "GET", "/v1/coupons/get/"+pctID, nil),
		e.call(other.Key, "PATCH", "/v1/coupons/update/"+pctID, map[string]any{"status": "INACTIVE"}),
		e.call(other.Key, "DELETE", "/v1/coupons/delete/"+pctID, nil),
	} {
		if r.Status != 404 {
			t.Errorf("another account's coupon: %d %s, want 404", r.Status, r.Message)
		}
	}
	if r := e.call(m.Key, "DELETE", "/v1/coupons/delete/"+pctID, nil); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Message)
	}
	if q := validate(m.Key, map[string]any{"code": "promo15", "amount": 10}); q.Valid {
		t.Errorf("a deleted coupon still applies: %+v", q)
	}
	if r := create(m.Key, map[string]any{"code": "PROMO15", "discountType": "FIXED", "discountValue": 1}); r.Status != 200 {
		t.Errorf("the code of a deleted coupon: %d %s", r.Status, r.Message)
	}
}
