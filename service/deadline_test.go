package service_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

// A Temporal that does not answer costs a request at most
// TemporalCallTimeout: every start carries that deadline, and a start that
// runs into it is a 503 (domain.ErrUnavailable) with nothing stored.
func TestStartCarriesADeadline(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Loja Lenta")
	r := newChargeRig(t)
	r.expectNewCharge()
	r.temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(ctx context.Context, _ client.StartWorkflowOptions, _ any, _ ...any) (client.WorkflowRun, error) {
			deadline, ok := ctx.Deadline()
			if !ok || time.Until(deadline) > service.TemporalCallTimeout {
				t.Errorf("start without a deadline of at most %v (deadline %v, set %v)", service.TemporalCallTimeout, deadline, ok)
			}
			return nil, context.DeadlineExceeded // what a hung Temporal ends in
		}).Times(1)
	_, err := r.charges.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, newCharge(1000))
	if !errors.Is(err, domain.ErrUnavailable) {
		t.Fatalf("Create = %v, want ErrUnavailable", err)
	}
}
