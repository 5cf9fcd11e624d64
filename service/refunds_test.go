package service_test

import (
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
)

// A refund asked again — the same Idempotency-Key, or the same refundId —
// answers with the first refund (whose answer the client may have lost)
// and reserves nothing more; another request for the same deposit is
// refused.
func TestRefundAskedAgainAnswersWithTheFirst(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acct := newAccount(t, "Loja Devolve")
	fund(t, acct.ID, 10_000)
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil).Times(4)
	refunds := &service.Refunds{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue, PublicURL: "https://api.jangada.test"}
	deposit := func() domain.Transaction {
		e2e := "E" + strings.ReplaceAll(domain.NewID(""), "-", "")[:31]
		return storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixIn, Status: domain.StatusCompleted,
			Amount: 1_000, FeeAmount: 50, NetAmount: 950, EndToEndID: &e2e, CompletedAt: domain.TimePtr(time.Now())})
	}
	ask := func(d domain.Transaction, refundID, key string) error {
		_, err := refunds.Create(ctx, acct, domain.NewRefund{DepositRef: d.ID, Amount: 1_000, Nature: "ORIGINAL",
			RefundID: refundID, IdempotencyKey: key})
		return err
	}
	byKey, byID := deposit(), deposit()
	if err := ask(byKey, "", "key-1"); err != nil {
		t.Fatal(err)
	}
	if err := ask(byKey, "", "key-1"); err != nil {
		t.Errorf("same Idempotency-Key again: %v", err)
	}
	if err := ask(byKey, "", "key-2"); err == nil || !strings.Contains(err.Error(), "already has a refund") {
		t.Errorf("another request for the deposit: %v, want already has a refund", err)
	}
	if err := ask(byID, "dev-1", ""); err != nil {
		t.Fatal(err)
	}
	if err := ask(byID, "dev-1", ""); err != nil {
		t.Errorf("same refundId again: %v", err)
	}
	b, err := db.GetBalance(ctx, sharedDB, acct.ID)
	if err != nil || b.Pending != 2*(950+50) {
		t.Fatalf("balance %+v (%v): want two reserves of 10.00", b, err)
	}
}
