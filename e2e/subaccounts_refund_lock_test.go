package e2e

import (
	"strings"
	"testing"

	"github.com/jangada/jangada/domain/subaccount"
)

// A refund of a deposit credited to a sub-account is a debit of that
// sub-account: under a full or withdraw_only lock it is refused and nothing
// moves; once unlocked it goes through (docs/ledger.md).
// A charge created before the lock still credits the sub-account when paid.
func TestSubaccountRefundFollowsTheLockTable(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m, sub := e.pixSubMerchant()
	paid := e.createCharge(m, map[string]any{"amount": 10, "description": "Venda", "subaccountId": sub})["id"].(string)
	open := e.createCharge(m, map[string]any{"amount": 10, "description": "Antes do bloqueio", "subaccountId": sub})["id"].(string)
	e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+paid+"/pay", nil)
	e.waitStatus(m, paid, "COMPLETED")
	e.fund(m, 5)
	e.move(m, "add-balance", map[string]any{"id": sub, "amount": 1, "externalReference": "fee"})
	wantSubBalance(t, e, m, sub, 1, 10.25, 0, 0)
	refund := map[string]any{"transactionId": paid, "amount": 10, "subaccountId": sub}
	available := 10.25
	for _, mode := range []string{subaccount.LockFull, subaccount.LockWithdrawOnly} {
		if r := e.move(m, "lock", map[string]any{"id": sub, "mode": mode}); r.Status != 200 {
			t.Fatalf("lock %s: %d %s", mode, r.Status, r.Message)
		}
		if r := e.call(m.Key, "POST", "/v1/refunds/create", refund); r.Status != 400 || !strings.Contains(r.Message, subaccount.OpRefund.String()) {
			t.Fatalf("refund under %s: %d %s, want a 400 naming the refund", mode, r.Status, r.Message)
		}
		wantSubBalance(t, e, m, sub, 1, available, 0, 0) // nothing moved
		if mode == subaccount.LockFull {
			// Paid under the lock, a charge created before it still credits
			// the sub-account (the payer already paid); the lock holds it.
			e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+open+"/pay", nil)
			e.waitStatus(m, open, "COMPLETED")
			available = 19.5
			wantSubBalance(t, e, m, sub, 1, available, 0, 0)
		}
		if r := e.move(m, "unlock", map[string]any{"id": sub}); r.Status != 200 {
			t.Fatalf("unlock: %d %s", r.Status, r.Message)
		}
	}
	if r := e.call(m.Key, "POST", "/v1/refunds/create", refund); r.Status != 200 {
		t.Fatalf("refund after the unlock: %d %s", r.Status, r.Message)
	}
	e.verifyLedger()
}
