package service_test

import (
	"context"
	"testing"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/sandbox"
	"github.com/jangada/jangada/service"
)

// deliveredOperator is a sandbox whose operator has delivered every top-up.
type deliveredOperator struct{ sandbox.Sandbox }

// CancelRecharge refuses: the operator delivered.
func (*deliveredOperator) CancelRecharge(context.Context, string) error {
	return processor.ErrAlreadyDelivered
}

// A cancel the operator refuses (it delivered) is 400 and refunds nothing:
// the reserve stays for the delivery notice, so the platform never pays.
func TestRechargeCancelRefusedOnceDelivered(t *testing.T) {
	t.Parallel()
	acct := productAccount(t, "Loja Recarga Entregue", 2_000)
	s := &service.Recharges{DB: sharedDB, Temporal: startsAnything(t), TaskQueue: taskQueue, Processor: &deliveredOperator{}}
	phone := mobile.MobileNumber{DDD: "11", Number: "937654321"} // VIVO
	r, err := s.Create(t.Context(), acct, domain.APIKey{ID: "k"}, mobile.NewRecharge{Phone: phone, Amount: 2000})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Cancel(t.Context(), acct, r.ID)
	wantErr(t, "cancel after delivery", err, domain.ErrInvalid, "can no longer be cancelled")
	got, err := db.GetTransaction(t.Context(), sharedDB, acct.ID, r.ID, domain.TypeMobileRecharge)
	if err != nil || got.Status != domain.StatusPending {
		t.Fatalf("recharge after refused cancel %+v, %v", got, err)
	}
	if b := balanceOf(t, acct); b.Available != 0 || b.Pending != 2000 {
		t.Fatalf("balance after refused cancel %+v", b)
	}
	verifyLedger(t)
}
