package e2e

import (
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
)

// pixSubMerchant is a merchant with sub-accounts and PIX on sub-accounts
// enabled, and one sub-account priced with surcharges (PIX in +0.25, PIX out +0.10).
func (e *env) pixSubMerchant() (merchant, string) {
	e.t.Helper()
	m := e.merchant()
	e.enable(m, domain.FeatureSubaccounts, domain.FeatureSubaccountPix)
	sub := e.createSub(m)
	if r := e.move(m, "set-pricing", map[string]any{"id": sub, "pixInFixed": 0.25, "pixOutFixed": 0.10}); r.Status != 200 {
		e.t.Fatalf("set-pricing: %d %s", r.Status, r.Message)
	}
	return m, sub
}

// TestSubaccountPixGates: subaccountId on PIX needs both features (403),
// and another account's sub-account is 404.
func TestSubaccountPixGates(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	subsOnly := e.subMerchant()
	sub := e.createSub(subsOnly)
	charge := map[string]any{"amount": 10, "description": "Venda", "subaccountId": sub}
	out := map[string]any{"amount": 1, "pixKey": "52998224725", "pixKeyType": "CPF", "subaccountId": sub}
	for path, body := range map[string]map[string]any{"/v1/payment-pix/create": charge, "/v1/transfer-pix/create": out,
		"/v1/refunds/create": {"transactionId": "x", "amount": 10, "subaccountId": sub}} {
		if r := e.call(subsOnly.Key, "POST", path, body); r.Status != 403 || !strings.Contains(r.Message, "subaccountId") {
			t.Errorf("%s without subaccountPix: %d %s", path, r.Status, r.Message)
		}
	}
	other, _ := e.pixSubMerchant()
	for path, body := range map[string]map[string]any{"/v1/payment-pix/create": charge, "/v1/transfer-pix/create": out} {
		if r := e.call(other.Key, "POST", path, body); r.Status != 404 {
			t.Errorf("%s with another account's sub-account: %d %s", path, r.Status, r.Message)
		}
	}
}

// TestSubaccountPixChargeAndRefund: a charge with subaccountId credits its
// net (main fee plus surcharge taken) to the sub-account, locked 24 h; its
// refund debits the sub-account; the filters find them.
func TestSubaccountPixChargeAndRefund(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, sub := e.pixSubMerchant()
	c := e.createCharge(m, map[string]any{"amount": 10, "description": "Venda", "subaccountId": sub})
	id := c["id"].(string)
	if c["feeAmount"] != 0.75 || c["netAmount"] != 9.25 || c["subaccountId"] != sub {
		t.Fatalf("charge: %v", c)
	}
	if r := e.move(m, "delete", map[string]any{"id": sub}); r.Status != 400 || !strings.Contains(r.Message, "still payable") {
		t.Fatalf("delete with a payable charge: %d %s", r.Status, r.Message)
	}
	e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", nil)
	paid := e.waitStatus(m, id, "COMPLETED")
	wantSubBalance(t, e, m, sub, 0, 9.25, 0, 0) // received PIX: locked 24 h, not spendable
	wantBalance(t, e, m, 0, 0, 0)
	for _, q := range []string{"subaccountId=", "merchantSubaccountId="} {
		if l := e.call(m.Key, "GET", "/v1/payment-pix/list?"+q+sub, nil).m(t); l["total"] != 1.0 {
			t.Fatalf("payment-pix/list %s: %v", q, l)
		}
	}
	if l := e.call(m.Key, "GET", "/v1/payment-pix/list?subaccountId=sub_other", nil).m(t); l["total"] != 0.0 {
		t.Fatalf("filter of another sub-account: %v", l)
	}
	// The refund pays back the net the sub kept plus the PIX out fee (0.60).
	e.fund(m, 5)
	e.move(m, "add-balance", map[string]any{"id": sub, "amount": 1, "externalReference": "fee"})
	if r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"transactionId": id, "amount": 10, "subaccountId": "sub_wrong"}); r.Status != 400 || !strings.Contains(r.Message, "subaccountId") {
		t.Fatalf("refund naming another sub-account: %d %s", r.Status, r.Message)
	}
	r := e.call(m.Key, "POST", "/v1/refunds/create", map[string]any{"e2eId": paid["endToEndId"], "amount": 10, "refundId": "SUBDEV1", "subaccountId": sub})
	if r.Status != 200 || r.m(t)["refund"].(map[string]any)["debitNet"] != 9.85 {
		t.Fatalf("refund: %d %s %s", r.Status, r.Message, r.Data)
	}
	wantSubBalance(t, e, m, sub, 0.4, 0.4, 0, 9.85)
	e.waitRefund(m, "SUBDEV1", "PROCESSING")
	if r := e.call(m.Key, "POST", "/v1/sandbox/refunds/SUBDEV1/settle", nil); r.Status != 200 {
		t.Fatalf("settle: %d %s", r.Status, r.Message)
	}
	e.waitRefund(m, id, "COMPLETED")
	wantSubBalance(t, e, m, sub, 0.4, 0.4, 0, 0)
	wantBalance(t, e, m, 4, 0, 4)
	e.verifyLedger()
}

// TestSubaccountPixOut: a PIX out with subaccountId reserves from the
// sub-account and settles from it, within its limits; the filter finds it.
func TestSubaccountPixOut(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, sub := e.pixSubMerchant()
	e.fund(m, 20)
	e.move(m, "add-balance", map[string]any{"id": sub, "amount": 20, "externalReference": "seed"})
	body := map[string]any{"amount": 10, "pixKey": "52998224725", "pixKeyType": "CPF", "subaccountId": sub}
	r := e.call(m.Key, "POST", "/v1/transfer-pix/create", body)
	if v := r.m(t); r.Status != 200 || v["feeAmount"] != 0.6 || v["subaccountId"] != sub {
		t.Fatalf("PIX out: %d %s %v", r.Status, r.Message, v)
	}
	id := r.m(t)["id"].(string)
	wantSubBalance(t, e, m, sub, 9.4, 9.4, 0, 10.6)
	e.waitTransfer(m, id, "PROCESSING")
	e.call(m.Key, "POST", "/v1/sandbox/transfer-pix/"+id+"/settle", nil)
	e.waitTransfer(m, id, "COMPLETED")
	wantSubBalance(t, e, m, sub, 9.4, 9.4, 0, 0)
	wantBalance(t, e, m, 0, 0, 0)
	if l := e.call(m.Key, "GET", "/v1/transfer-pix/list?subaccountId="+sub, nil).m(t); l["total"] != 1.0 {
		t.Fatalf("transfer-pix/list: %v", l)
	}
	if l := e.call(m.Key, "GET", "/v1/account/transactions?merchantSubaccountId="+sub, nil).m(t); l["total"] != 2.0 {
		t.Fatalf("account/transactions of the sub-account: %v", l)
	}
	// Its limits count the completed PIX out; the source must be able to pay.
	e.move(m, "set-limits", map[string]any{"id": sub, "daily": 12})
	body["amount"] = 2.5
	if r := e.call(m.Key, "POST", "/v1/transfer-pix/create", body); r.Status != 400 || !strings.Contains(r.Message, "daily") {
		t.Fatalf("PIX out beyond the daily limit: %d %s", r.Status, r.Message)
	}
	e.move(m, "set-limits", map[string]any{"id": sub})
	body["amount"] = 9
	if r := e.call(m.Key, "POST", "/v1/transfer-pix/create", body); r.Status != 400 || !strings.Contains(r.Message, "insufficient") {
		t.Fatalf("PIX out beyond the sub-account's money: %d %s", r.Status, r.Message)
	}
	e.verifyLedger()
}

// TestSubaccountPixLockCells: the PIX columns of the lock table (charge to
// the sub, PIX out from the sub) under every mode and DISABLED.
func TestSubaccountPixLockCells(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, _ := e.pixSubMerchant()
	e.fund(m, 100)
	cells := []struct {
		mode           string
		charge, pixOut bool
	}{
		{"NONE", true, true}, {"full", false, false}, {"withdraw_only", true, false}, {"deposit_only", false, true}, {"DISABLED", false, false},
	}
	for _, c := range cells {
		sub := e.createSub(m)
		e.move(m, "add-balance", map[string]any{"id": sub, "amount": 10, "externalReference": "seed-" + sub})
		switch c.mode {
		case "NONE":
		case "DISABLED":
			e.move(m, "update", map[string]any{"id": sub, "status": "DISABLED"})
		default:
			e.move(m, "lock", map[string]any{"id": sub, "mode": c.mode})
		}
		ch := e.call(m.Key, "POST", "/v1/payment-pix/create", map[string]any{"amount": 5, "description": "Venda", "subaccountId": sub})
		if c.charge != (ch.Status == 200) || !c.charge && ch.Status != 400 {
			t.Errorf("charge under %s: %d %s", c.mode, ch.Status, ch.Message)
		}
		out := e.call(m.Key, "POST", "/v1/transfer-pix/create", map[string]any{"amount": 1, "pixKey": "52998224725", "pixKeyType": "CPF", "subaccountId": sub})
		if c.pixOut != (out.Status == 200) || !c.pixOut && out.Status != 400 {
			t.Errorf("PIX out under %s: %d %s", c.mode, out.Status, out.Message)
		}
	}
	e.verifyLedger()
}
