package e2e

import "testing"

// Every create is safe to retry with an Idempotency-Key: the same key and
// body get the first answer again (and move nothing again), the same key
// with another body is a 400 naming the header.
func TestIdempotencyKeyReplaysCreates(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	e.fund(m, 100)
	post := func(path, idemKey string, body any) resp {
		return e.request("POST", path, map[string]string{"X-API-Key": m.Key, "Idempotency-Key": idemKey}, body)
	}
	body := map[string]any{"amount": 10, "pixKey": "a@b.co", "pixKeyType": "EMAIL"}
	first := post("/v1/transfer-pix/create", "pay-supplier-42", body)
	again := post("/v1/transfer-pix/create", "pay-supplier-42", body)
	if first.Status != 200 || again.Status != 200 || first.m(t)["id"] != again.m(t)["id"] {
		t.Fatalf("replay: %d %v / %d %v", first.Status, first.m(t)["id"], again.Status, again.m(t)["id"])
	}
	if again.Header.Get("Idempotent-Replayed") != "true" || again.ReqID != again.Header.Get("X-Request-Id") || again.ReqID == first.ReqID {
		t.Fatalf("replay headers: %v, requestId %s", again.Header, again.ReqID)
	}
	wantBalance(t, e, m, 89.5, 10.5, 89.5) // one reserve: 10 + the 0.50 fee
	if r := post("/v1/transfer-pix/create", "pay-supplier-42", map[string]any{"amount": 11, "pixKey": "a@b.co", "pixKeyType": "EMAIL"}); r.Status != 400 || r.Message != "Idempotency-Key was already used with another request" {
		t.Fatalf("same key, another body: %d %s", r.Status, r.Message)
	}
	if r := post("/v1/transfer-pix/create", "pay-supplier-43", body); r.Status != 200 || r.m(t)["id"] == first.m(t)["id"] {
		t.Fatalf("another key: %d %v", r.Status, r.Data)
	}
	c1 := post("/v1/payment-pix/create", "order-7", map[string]any{"amount": 25, "description": "Pedido 7"})
	c2 := post("/v1/payment-pix/create", "order-7", map[string]any{"amount": 25, "description": "Pedido 7"})
	if c1.Status != 200 || c1.m(t)["id"] != c2.m(t)["id"] || c1.m(t)["copyPaste"] != c2.m(t)["copyPaste"] {
		t.Fatalf("charge replay: %v / %v", c1.Data, c2.Data)
	}
	if l := e.call(m.Key, "GET", "/v1/payment-pix/list", nil).m(t); l["total"] != 1.0 {
		t.Fatalf("charges after a replay: %v", l["total"])
	}
	e.verifyLedger()
}
