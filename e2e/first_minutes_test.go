package e2e

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestFirstChargeAsTheReadmeSays walks README.md's "A first charge" as a
// newcomer does (every request and answer checked against the OpenAPI
// documents, as all of env.request's are): the account found through the admin list, a key made for it,
// a charge whose QR URL serves the PNG, paid in the sandbox, COMPLETED a
// moment later and its QR URL then saying why it is not payable; then the
// funding step a PIX out needs, and the PIX out COMPLETED a moment later.
func TestFirstChargeAsTheReadmeSays(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	admin := map[string]string{"X-Admin-Token": adminToken}

	list := e.request("GET", "/admin/v1/accounts?search="+m.Email, admin, nil)
	var page struct {
		Items []struct{ ID string } `json:"items"`
		Total int                   `json:"total"`
	}
	list.into(t, &page)
	if list.Status != 200 || page.Total != 1 || page.Items[0].ID != m.ID {
		t.Fatalf("admin list by e-mail: %d %s", list.Status, list.Data)
	}
	created := e.request("POST", "/admin/v1/accounts/"+m.ID+"/keys", admin, map[string]any{"name": "readme", "permissions": []string{"*"}})
	key, _ := created.m(t)["key"].(string)
	if created.Status != 200 || key == "" {
		t.Fatalf("create key: %d %s", created.Status, created.Message)
	}
	auth := map[string]string{"X-API-Key": key}

	c := e.request("POST", "/v1/payment-pix/create", auth, map[string]any{"amount": 25.90, "description": "Pedido 1"})
	charge := c.m(t)
	id, _ := charge["id"].(string)
	if c.Status != 200 || charge["status"] != "PENDING" || id == "" {
		t.Fatalf("create charge: %d %s", c.Status, c.Data)
	}
	qr := strings.Replace(charge["qrcodeUrl"].(string), "http://jangada.test", e.base, 1)
	if res, err := http.Get(qr); err != nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("QR of a pending charge: %v %v", res, err)
	}
	if p := e.request("POST", "/v1/sandbox/payment-pix/"+id+"/pay", auth, nil); p.Status != 200 {
		t.Fatalf("sandbox pay: %d %s", p.Status, p.Message)
	}
	eventually(t, "the charge COMPLETED a moment later", func() bool {
		s := e.request("GET", "/v1/payment-pix/status/"+id, auth, nil)
		return s.Status == 200 && s.m(t)["status"] == "COMPLETED"
	})
	res, err := http.Get(qr)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusConflict || !strings.Contains(string(b), "charge is no longer payable: it is COMPLETED") {
		t.Fatalf("QR of a paid charge: %d %s", res.StatusCode, b)
	}

	// The funding step: received PIX is locked for 24 h, an adjustment is
	// withdrawable at once.
	if a := e.request("POST", "/admin/v1/accounts/"+m.ID+"/adjustments", admin, map[string]any{"amount": 100, "description": "Saldo inicial"}); a.Status != 200 {
		t.Fatalf("adjust: %d %s", a.Status, a.Message)
	}
	out := e.request("POST", "/v1/transfer-pix/create", auth, map[string]any{"amount": 10, "pixKey": "pagamentos@example.com", "pixKeyType": "EMAIL"})
	tid, _ := out.m(t)["id"].(string)
	if out.Status != 200 || tid == "" {
		t.Fatalf("PIX out: %d %s", out.Status, out.Message)
	}
	// The shared app does not settle by itself (JANGADA_SANDBOX_AUTO_SETTLE
	// off in the harness): the sandbox route does what make run's timer does.
	if st := e.request("POST", "/v1/sandbox/transfer-pix/"+tid+"/settle", auth, nil); st.Status != 200 {
		t.Fatalf("sandbox settle: %d %s", st.Status, st.Message)
	}
	eventually(t, "the PIX out COMPLETED a moment later", func() bool {
		s := e.request("GET", "/v1/transfer-pix/status/"+tid, auth, nil)
		return s.Status == 200 && s.m(t)["status"] == "COMPLETED"
	})
	for _, p := range []string{"/v1/payment-pix/get/" + id, "/v1/transfer-pix/get/" + tid, "/v1/account/balance", "/v1/account/transactions?pageSize=5"} {
		if r := e.request("GET", p, auth, nil); r.Status != 200 {
			t.Errorf("GET %s: %d %s", p, r.Status, r.Message)
		}
	}
	// An error answer is in the document too.
	if r := e.request("GET", "/v1/payment-pix/get/nope", auth, nil); r.Status != 404 {
		t.Errorf("unknown charge: %d", r.Status)
	}
	e.verifyLedger()
}
