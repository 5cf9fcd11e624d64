package service_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
)

// A PIX out held for security review has sent nothing: a processor notice
// for it is refused (no signal reaches its workflow), as a crypto
// withdrawal's is. A "failed" notice buffered there would fail the transfer
// and return its reserve the moment an operator approved it, after the
// money was sent; once the review is decided, notices pass again.
func TestInboxTransferNoticeRefusedWhileHeldForReview(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Loja Revisada")
	held := storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixOut, Status: domain.StatusPending, Amount: 50_000,
		NetAmount: 50_000, Details: domain.SomeJSON(domain.Details{SecurityReview: &domain.SecurityReview{Pending: true, Reason: "threshold"}})})
	decided := storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixOut, Status: domain.StatusProcessing, Amount: 50_000,
		NetAmount: 50_000, Details: domain.SomeJSON(domain.Details{SecurityReview: &domain.SecurityReview{Decision: domain.DecisionApprove}})})
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	n := processor.TransferNotice{Outcome: processor.OutcomeFailed, Reason: "recusado", At: time.Now().UTC()}
	addressed := n
	addressed.TransferID = decided.ID
	temporal.EXPECT().SignalWorkflow(gomock.Any(), "transfer/"+decided.ID, "", "processor-notice", addressed).Return(nil).Times(1)
	inbox := &service.Inbox{DB: sharedDB, Temporal: temporal}
	err := inbox.TransferNotice(t.Context(), held.ID, n)
	if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "held for security review") {
		t.Fatalf("notice for a held PIX out: %v, want a 400 saying it is held for security review", err)
	}
	if err := inbox.TransferNotice(t.Context(), decided.ID, n); err != nil {
		t.Fatalf("notice after the review was decided: %v", err)
	}
}
