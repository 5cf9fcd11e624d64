package service_test

import (
	"errors"
	"testing"

	"go.temporal.io/api/serviceerror"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/workflows"
)

// An operator's review decision names the transfer it decides (the
// workflow ignores one naming another, so a sealed "approve" copied out of
// one history approves no other transfer), then goes again as the bare
// string that workflows started before read. A workflow that ended on the
// first is no error; Temporal failing on either is.
func TestReviewDecisionNamesItsTransfer(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Loja Review")
	held := storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixOut, Status: domain.StatusPending, Amount: 1000, NetAmount: 1000,
		Details: domain.SomeJSON(domain.Details{SecurityReview: &domain.SecurityReview{Pending: true}})})
	wid := "transfer/" + held.ID

	for _, tt := range []struct {
		name    string
		legacy  error // what the second, bare signal answers
		wantErr error
	}{
		{"both delivered", nil, nil},
		{"ended on the first", serviceerror.NewNotFound("closed"), nil},
		{"Temporal failing", errors.New("connection refused"), domain.ErrUnavailable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			temporal := servicemock.NewMockTemporal(gomock.NewController(t))
			gomock.InOrder(
				temporal.EXPECT().SignalWorkflow(gomock.Any(), wid, "", workflows.ReviewSignal,
					workflows.ReviewDecision{TransferID: held.ID, Decision: workflows.DecisionApprove}).Return(nil),
				temporal.EXPECT().SignalWorkflow(gomock.Any(), wid, "", workflows.ReviewSignal, workflows.DecisionApprove).Return(tt.legacy),
			)
			err := (&service.Transfers{DB: sharedDB, Temporal: temporal}).Review(t.Context(), held.ID, workflows.DecisionApprove)
			if tt.wantErr == nil && err != nil || tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("Review = %v, want %v", err, tt.wantErr)
			}
		})
	}

	t.Run("workflow gone before the decision", func(t *testing.T) {
		temporal := servicemock.NewMockTemporal(gomock.NewController(t))
		temporal.EXPECT().SignalWorkflow(gomock.Any(), wid, "", workflows.ReviewSignal, gomock.Any()).Return(serviceerror.NewNotFound("closed"))
		err := (&service.Transfers{DB: sharedDB, Temporal: temporal}).Review(t.Context(), held.ID, workflows.DecisionReject)
		if !errors.Is(err, domain.ErrInvalid) {
			t.Fatalf("Review = %v, want invalid (no longer in progress)", err)
		}
	})
}
