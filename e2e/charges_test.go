package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/money"
)

func (e *env) createCharge(m merchant, body map[string]any) map[string]any {
	e.t.Helper()
	r := e.call(m.Key, "POST", "/v1/payment-pix/create", body)
	if r.Status != 200 {
		e.t.Fatalf("create charge: %d %s", r.Status, r.Message)
	}
	return r.m(e.t)
}

func (e *env) waitStatus(m merchant, id, want string) map[string]any {
	e.t.Helper()
	var got map[string]any
	eventually(e.t, "charge "+id+" to be "+want, func() bool {
		r := e.call(m.Key, "GET", "/v1/payment-pix/get/"+id, nil)
		got = r.m(e.t)
		return r.Status == 200 && got["status"] == want
	})
	return got
}

func (e *env) balance(m merchant) map[string]any {
	e.t.Helper()
	r := e.call(m.Key, "GET", "/v1/account/balance", nil)
	if r.Status != 200 {
		e.t.Fatalf("balance: %d %s", r.Status, r.Message)
	}
	return r.m(e.t)["padrao"].(map[string]any)
}

func eventTypes(t *testing.T, e *env, id string) []string {
	evs, err := db.EventsFor(context.Background(), e.app.DB, id)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, ev := range evs {
		types = append(types, ev.Type)
	}
	return types
}

func TestChargeCreatePayCompletes(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	c := e.createCharge(m, map[string]any{"amount": 150.25, "description": "Pedido 42", "externalReference": "order-42"})
	if c["status"] != "PENDING" || c["amount"] != 150.25 || c["feeAmount"] != 0.5 || c["netAmount"] != 149.75 {
		t.Fatalf("create data: %v", c)
	}
	if !strings.HasPrefix(c["qrCodeBase64"].(string), "data:image/png;base64,") {
		t.Fatalf("qrCodeBase64: %.40s", c["qrCodeBase64"])
	}
	p, err := brcode.Parse(c["copyPaste"].(string))
	if err != nil || p.Amount != 15025 || len(p.TxID) < 26 {
		t.Fatalf("copyPaste %q: %+v %v", c["copyPaste"], p, err)
	}
	id := c["id"].(string)

	// A pending charge read by GET has its BR Code but not the image.
	g := e.call(m.Key, "GET", "/v1/payment-pix/get/order-42", nil)
	gm := g.m(t)
	if g.Status != 200 || gm["id"] != id || gm["copyPaste"] == nil || gm["qrcodeUrl"] == nil {
		t.Fatalf("get by externalReference: %d %v", g.Status, gm)
	}
	for _, internal := range []string{"qrCodeBase64", "accountId", "provider", "metadata", "direction", "updatedAt"} {
		if _, found := gm[internal]; found {
			t.Errorf("GET exposes %s", internal)
		}
	}

	pay := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", map[string]any{"payerName": "Maria Souza", "payerDocument": "529.982.247-25"})
	if pay.Status != 200 {
		t.Fatalf("pay: %d %s", pay.Status, pay.Message)
	}
	done := e.waitStatus(m, id, "COMPLETED")
	payer := done["payer"].(map[string]any)
	if payer["name"] != "Maria Souza" || payer["document"] != "52998224725" {
		t.Fatalf("payer: %v", payer)
	}
	e2e, _ := done["endToEndId"].(string)
	if len(e2e) != 32 || e2e[0] != 'E' {
		t.Fatalf("endToEndId %q", e2e)
	}
	if done["copyPaste"] != nil || done["completedAt"] == nil {
		t.Fatalf("completed record: %v", done)
	}

	b := e.balance(m)
	if b["available"] != 149.75 || b["locked24h"] != 149.75 || b["withdrawable"] != 0.0 || b["pending"] != 0.0 {
		t.Fatalf("balance: %v", b)
	}
	unlock, err := time.Parse(time.RFC3339, b["nextUnlockAt"].(string))
	if err != nil || time.Until(unlock) < 23*time.Hour || time.Until(unlock) > 25*time.Hour {
		t.Fatalf("nextUnlockAt %v", b["nextUnlockAt"])
	}

	// A second confirmation is refused and changes nothing.
	again := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", nil)
	if again.Status != 400 {
		t.Fatalf("second pay: %d", again.Status)
	}
	if got := e.balance(m)["available"]; got != 149.75 {
		t.Fatalf("balance after duplicate pay: %v", got)
	}
	if got := strings.Join(eventTypes(t, e, id), ","); got != "payment.created,payment.paid" {
		t.Fatalf("events: %s", got)
	}
	evs, _ := db.EventsFor(context.Background(), e.app.DB, id)
	for _, field := range []string{"copyPaste", "qrCodeBase64", "qrcodeUrl", "accountId"} {
		if strings.Contains(string(evs[0].Data), `"`+field+`"`) {
			t.Errorf("payment.created carries %s: %s", field, evs[0].Data)
		}
	}
	if !strings.Contains(string(evs[0].Data), `"expiresAt"`) || !strings.Contains(string(evs[1].Data), `"payer"`) {
		t.Errorf("event data: %s / %s", evs[0].Data, evs[1].Data)
	}
	st := e.call(m.Key, "GET", "/v1/payment-pix/status/"+id, nil).m(t)
	if st["status"] != "COMPLETED" || st["description"] != nil {
		t.Fatalf("status payload: %v", st)
	}
	e.verifyLedger()
}

func TestChargeExpireAndFail(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	for _, tc := range []struct{ action, status, event string }{
		{"expire", "CANCELED", "payment.pix.expired"},
		{"fail", "FAILED", "payment.failed"},
	} {
		c := e.createCharge(m, map[string]any{"amount": 10, "description": "Teste " + tc.action})
		id := c["id"].(string)
		if r := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/"+tc.action, nil); r.Status != 200 {
			t.Fatalf("%s: %d %s", tc.action, r.Status, r.Message)
		}
		got := e.waitStatus(m, id, tc.status)
		if got["copyPaste"] != nil {
			t.Errorf("%s charge still shows its QR", tc.status)
		}
		if evs := eventTypes(t, e, id); len(evs) != 2 || evs[1] != tc.event {
			t.Fatalf("events after %s: %v", tc.action, evs)
		}
		if r := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", nil); r.Status != 400 {
			t.Fatalf("paying a %s charge: %d", tc.status, r.Status)
		}
	}
	if b := e.balance(m); b["available"] != 0.0 {
		t.Fatalf("balance moved: %v", b)
	}
	e.verifyLedger()
}

func TestChargeCoverFeeAndPercentFee(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	if r := e.admin("PATCH", "/accounts/"+m.ID, map[string]any{"fees": map[string]any{"pixInFixed": 0.3, "pixInPercent": 1.99}}); r.Status != 200 {
		t.Fatalf("set fees: %d %s", r.Status, r.Message)
	}
	// coverFee: the merchant nets exactly the amount; the payer pays the fee.
	c := e.createCharge(m, map[string]any{"amount": 100, "description": "Com taxa", "coverFee": true})
	gross, fee, _ := money.GrossForNet(10000, 30, 199)
	if c["netAmount"] != 100.0 || c["amount"] != float64(gross)/100 || c["feeAmount"] != float64(fee)/100 {
		t.Fatalf("coverFee charge: %v (want gross %v fee %v)", c, gross, fee)
	}
	e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+c["id"].(string)+"/pay", nil)
	e.waitStatus(m, c["id"].(string), "COMPLETED")
	if b := e.balance(m); b["available"] != 100.0 {
		t.Fatalf("coverFee balance: %v", b)
	}
	// Without coverFee: fee = 0.30 + 1.99% of 200.00 = 4.28.
	c2 := e.createCharge(m, map[string]any{"amount": 200, "description": "Sem taxa"})
	if c2["feeAmount"] != 4.28 || c2["netAmount"] != 195.72 {
		t.Fatalf("percent fee: %v", c2)
	}
	e.verifyLedger()
}

func TestChargeSplit(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	partner := e.merchant()
	c := e.createCharge(m, map[string]any{"amount": 100, "description": "Com split", "splitUser": partner.Email, "splitTax": 10})
	id := c["id"].(string)
	e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", nil)
	done := e.waitStatus(m, id, "COMPLETED")
	split := done["split"].(map[string]any)
	if split["splitUser"] != partner.Email || split["amount"] != 9.95 {
		t.Fatalf("split block: %v", split)
	}
	// Net 99.50; partner gets 10% = 9.95, merchant keeps 89.55.
	if b := e.balance(m); b["available"] != 89.55 {
		t.Fatalf("merchant balance: %v", b)
	}
	if b := e.balance(partner); b["available"] != 9.95 {
		t.Fatalf("partner balance: %v", b)
	}
	list := e.call(partner.Key, "GET", "/v1/payment-pix/list", nil).m(t)
	items := list["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["type"] != "SPLIT_IN" {
		t.Fatalf("partner list: %v", list)
	}
	for _, bad := range []map[string]any{
		{"amount": 10, "description": "x split", "splitUser": "nobody@example.com", "splitTax": 5},
		{"amount": 10, "description": "x split", "splitUser": m.Email, "splitTax": 5},
		{"amount": 10, "description": "x split", "splitUser": partner.Email},
		{"amount": 10, "description": "x split", "splitUser": partner.Email, "splitTax": 100.01},
	} {
		if r := e.call(m.Key, "POST", "/v1/payment-pix/create", bad); r.Status != 400 {
			t.Errorf("bad split %v: %d", bad, r.Status)
		}
	}
	e.verifyLedger()
}

func TestChargeOtherAccountIsNotFound(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	a, b := e.merchant(), e.merchant()
	c := e.createCharge(a, map[string]any{"amount": 5, "description": "Privado", "externalReference": "ref-a"})
	for _, path := range []string{"/v1/payment-pix/get/" + c["id"].(string), "/v1/payment-pix/status/" + c["id"].(string), "/v1/payment-pix/get/ref-a"} {
		if r := e.call(b.Key, "GET", path, nil); r.Status != 404 || r.Data != nil {
			t.Errorf("%s as another account: %d %s", path, r.Status, r.Data)
		}
	}
	if r := e.call(b.Key, "POST", "/v1/sandbox/payment-pix/"+c["id"].(string)+"/pay", nil); r.Status != 404 {
		t.Errorf("paying another account's charge: %d", r.Status)
	}
}

func TestChargeListFilters(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	for i, d := range []string{"Camiseta azul", "Camiseta verde", "Boné"} {
		e.createCharge(m, map[string]any{"amount": 10 + i, "description": d})
	}
	list := func(q string) map[string]any {
		r := e.call(m.Key, "GET", "/v1/payment-pix/list"+q, nil)
		if r.Status != 200 {
			t.Fatalf("list %s: %d %s", q, r.Status, r.Message)
		}
		return r.m(t)
	}
	all := list("")
	if all["total"] != 3.0 || all["page"] != 1.0 || all["pageSize"] != 50.0 || all["pages"] != 1.0 {
		t.Fatalf("list: %v", all)
	}
	if got := list("?search=camiseta")["total"]; got != 2.0 {
		t.Fatalf("search: %v", got)
	}
	p := list("?pageSize=2&page=2")
	if len(p["items"].([]any)) != 1 || p["pages"] != 2.0 {
		t.Fatalf("paging: %v", p)
	}
	if got := list("?status=COMPLETED")["total"]; got != 0.0 {
		t.Fatalf("status filter: %v", got)
	}
	if got := list("?dateFrom=" + time.Now().Add(time.Hour).UTC().Format(time.RFC3339))["total"]; got != 0.0 {
		t.Fatalf("dateFrom filter: %v", got)
	}
	for _, q := range []string{"?page=0", "?pageSize=101", "?status=PAID", "?dateFrom=yesterday"} {
		if r := e.call(m.Key, "GET", "/v1/payment-pix/list"+q, nil); r.Status != 400 {
			t.Errorf("list%s: %d", q, r.Status)
		}
	}
	tx := e.call(m.Key, "GET", "/v1/account/transactions", nil).m(t)
	if tx["total"] != 3.0 {
		t.Fatalf("transactions: %v", tx)
	}
}

func TestChargeValidation(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	e.admin("PATCH", "/accounts/"+m.ID, map[string]any{"features": map[string]any{"subaccounts": true}})
	ok := func(extra map[string]any) map[string]any {
		b := map[string]any{"amount": 10, "description": "Valid"}
		for k, v := range extra {
			if v == nil {
				delete(b, k)
			} else {
				b[k] = v
			}
		}
		return b
	}
	cases := []struct {
		name   string
		body   any
		status int
		field  string
	}{
		{"no body", "", 400, "amount"},
		{"not an object", "[1,2]", 400, "JSON object"},
		{"malformed", "{", 400, "JSON object"},
		{"missing amount", ok(map[string]any{"amount": nil}), 400, "amount"},
		{"amount string", ok(map[string]any{"amount": "10"}), 400, "amount"},
		{"amount three decimals", `{"amount": 10.001, "description": "abc"}`, 400, "amount"},
		{"amount below minimum", ok(map[string]any{"amount": 0.99}), 400, "amount"},
		{"amount above maximum", ok(map[string]any{"amount": 1000000.01}), 400, "amount"},
		{"negative amount", ok(map[string]any{"amount": -5}), 400, "amount"},
		{"short description", ok(map[string]any{"description": "ab"}), 400, "description"},
		{"long description", ok(map[string]any{"description": strings.Repeat("a", 181)}), 400, "description"},
		{"description not a string", ok(map[string]any{"description": 12}), 400, "description"},
		{"expiration too short", ok(map[string]any{"expirationSeconds": 59}), 400, "expirationSeconds"},
		{"expiration too long", ok(map[string]any{"expirationSeconds": 604801}), 400, "expirationSeconds"},
		{"expiration fractional", ok(map[string]any{"expirationSeconds": 60.5}), 400, "expirationSeconds"},
		{"coverFee not bool", ok(map[string]any{"coverFee": "yes"}), 400, "coverFee"},
		{"payer name too long", ok(map[string]any{"payer": map[string]any{"name": strings.Repeat("a", 121)}}), 400, "payer.name"},
		{"payer document invalid", ok(map[string]any{"payerDocument": "12345678900"}), 400, "payer.document"},
		{"externalReference too long", ok(map[string]any{"externalReference": strings.Repeat("r", 121)}), 400, "externalReference"},
		{"pixRail sent", ok(map[string]any{"pixRail": "PADRAO"}), 400, "pixRail"},
		{"fiscal invoice off", ok(map[string]any{"emitFiscalInvoice": true}), 403, "emitFiscalInvoice"},
		{"subaccount", ok(map[string]any{"subaccountId": "sub_1"}), 403, "subaccount"},
		{"boundary minimum", ok(map[string]any{"amount": 1}), 200, ""},
		{"boundary maximum", ok(map[string]any{"amount": 1000000, "expirationSeconds": 60}), 200, ""},
		{"exponent amount", `{"amount": 1.5e1, "description": "exp"}`, 200, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.call(m.Key, "POST", "/v1/payment-pix/create", tc.body)
			if r.Status != tc.status {
				t.Fatalf("status %d (%s), want %d", r.Status, r.Message, tc.status)
			}
			if tc.status != 200 && (!strings.Contains(r.Message, tc.field) || r.Success || r.ReqID == "" || r.Header.Get("X-Request-Id") != r.ReqID) {
				t.Fatalf("error envelope %+v does not name %q", r, tc.field)
			}
		})
	}
	// A duplicate externalReference is a 400, not a 500.
	e.createCharge(m, ok(map[string]any{"externalReference": "dup"}))
	if r := e.call(m.Key, "POST", "/v1/payment-pix/create", ok(map[string]any{"externalReference": "dup"})); r.Status != 400 {
		t.Fatalf("duplicate externalReference: %d %s", r.Status, r.Message)
	}
}
