package service_test

import (
	"errors"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor/sandbox"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/workflows"
)

// A crypto withdrawal at or above the account's securityReviewThreshold is
// stored held (the PIX out's rule, Account.ReviewHold), its reserve taken;
// the operator's decision through Transfers.Review reaches its workflow
// (crypto/<id>) naming it; one below the threshold, or already decided,
// takes no decision.
func TestCryptoWithdrawalHeldForReview(t *testing.T) {
	t.Parallel()
	acct := productAccount(t, "Cripto Revisada", 30_000)
	th := money.Cents(10_000)
	acct.SecurityReviewThreshold = &th
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil).AnyTimes()
	s := &service.Crypto{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue, Processor: &sandbox.Sandbox{}}
	send := func(idem string, amount money.Cents) domain.Transaction {
		t.Helper()
		w, err := s.SendAuto(t.Context(), acct, domain.APIKey{ID: "k"}, crypto.NewCryptoWithdrawal{IdempotencyKey: idem,
			Address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", Currency: crypto.CryptoCurrencies["BTC"], Amount: amount})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	held, free := send("held", 10_000), send("free", 9_999)
	if r := held.Details.V.SecurityReview; r == nil || !r.Pending || r.Reason != acct.ReviewReason(10_000) || held.Status != domain.StatusPending {
		t.Fatalf("held withdrawal %+v", held.Details.V)
	}
	if free.Details.V.SecurityReview != nil {
		t.Fatalf("below the threshold, held: %+v", free.Details.V.SecurityReview)
	}
	if b := balanceOf(t, acct); b.Available != 10_001 || b.Pending != 19_999 {
		t.Fatalf("balance %+v", b)
	}

	temporal.EXPECT().SignalWithStartWorkflow(gomock.Any(), workflows.CryptoWorkflowID(held.ID), workflows.ReviewSignal,
		workflows.ReviewDecision{TransferID: held.ID, Decision: domain.DecisionApprove}, gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil)
	transfers := &service.Transfers{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue}
	if err := transfers.Review(t.Context(), held.ID, domain.DecisionApprove); err != nil {
		t.Fatalf("review: %v", err)
	}
	if err := transfers.Review(t.Context(), free.ID, domain.DecisionApprove); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("review of a withdrawal not held: %v", err)
	}
	if err := transfers.Review(t.Context(), "nope", domain.DecisionApprove); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("review of nothing: %v", err)
	}
	verifyLedger(t)
}
