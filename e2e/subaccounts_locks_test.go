package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jangada/jangada/domain/subaccount"
)

// TestSubaccountLockTable tests every cell of the lock table
// (docs/ledger.md) for the moves, plus the DISABLED rule: each cell is one
// sub-account in that mode trying that operation.
func TestSubaccountLockTable(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.subMerchant()
	e.fund(m, 1000)
	peer := e.createSub(m)
	e.move(m, "add-balance", map[string]any{"id": peer, "amount": 100, "externalReference": "peer"})
	ops := map[subaccount.Op]func(sub, ref string) resp{
		subaccount.OpAddBalance: func(sub, ref string) resp {
			return e.move(m, "add-balance", map[string]any{"id": sub, "amount": 1, "externalReference": ref})
		},
		subaccount.OpRemoveBalance: func(sub, ref string) resp {
			return e.move(m, "remove-balance", map[string]any{"id": sub, "amount": 1, "externalReference": ref})
		},
		subaccount.OpTransferOut: func(sub, ref string) resp {
			return e.move(m, "transfer", map[string]any{"fromSubaccountId": sub, "toSubaccountId": peer, "amount": 1, "externalReference": ref})
		},
		subaccount.OpTransferIn: func(sub, ref string) resp {
			return e.move(m, "transfer", map[string]any{"fromSubaccountId": peer, "toSubaccountId": sub, "amount": 1, "externalReference": ref})
		},
	}
	n := 0
	for _, mode := range []string{subaccount.LockNone, subaccount.LockFull, subaccount.LockWithdrawOnly, subaccount.LockDepositOnly, "DISABLED"} {
		for op, do := range ops {
			n++
			sub := e.createSub(m)
			e.move(m, "add-balance", map[string]any{"id": sub, "amount": 10, "externalReference": "seed-" + sub})
			switch mode {
			case subaccount.LockNone:
			case "DISABLED":
				if r := e.move(m, "update", map[string]any{"id": sub, "status": "DISABLED"}); r.Status != 200 {
					t.Fatalf("disable: %d %s", r.Status, r.Message)
				}
			default:
				r := e.move(m, "lock", map[string]any{"id": sub, "mode": mode})
				if r.Status != 200 || r.m(t)["lockMode"] != mode {
					t.Fatalf("lock %s: %d %s", mode, r.Status, r.Message)
				}
			}
			want := mode != "DISABLED" && subaccount.Allows(mode, op)
			r := do(sub, fmt.Sprintf("cell-%d", n))
			if want && r.Status != 200 || !want && (r.Status != 400 || !strings.Contains(r.Message, op.String())) {
				t.Errorf("%s under %s: %d %s (allowed: %v)", op, mode, r.Status, r.Message, want)
			}
			if mode != subaccount.LockNone && mode != "DISABLED" {
				// unlock → NONE, and the operation goes through.
				u := e.move(m, "unlock", map[string]any{"id": sub})
				if uv := u.m(t); u.Status != 200 || uv["lockMode"] != "NONE" || uv["id"] != sub || uv["status"] != "ACTIVE" || len(uv) != 3 {
					t.Fatalf("unlock: %d %v", u.Status, uv)
				}
				if r := do(sub, fmt.Sprintf("after-%d", n)); r.Status != 200 {
					t.Errorf("%s after unlock from %s: %d %s", op, mode, r.Status, r.Message)
				}
			}
		}
	}
	if r := e.move(m, "lock", map[string]any{"id": peer, "mode": "partial"}); r.Status != 400 || !strings.Contains(r.Message, "mode") {
		t.Fatalf("bad mode: %d %s", r.Status, r.Message)
	}
	e.verifyLedger()
}
