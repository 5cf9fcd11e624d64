package service

import (
	"context"
	"errors"
	"testing"

	"go.temporal.io/api/common/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/workflows"
)

// A start that finds its workflow id taken counts as started only when the
// workflow there is its resource's (account, resource, type and owner in
// its search attributes): a billing refund whose id met another billing's
// closed refund workflow must not be taken as asked of the processor.
func TestStartTakesOnlyItsOwnWorkflowAsStarted(t *testing.T) {
	b := billing.Billing{ID: "bil_2", AccountID: "acct_1"}
	st := workflows.BillingRefundStart(b, "refund_1", 15_000)
	attrs := func(owner string) *common.SearchAttributes {
		fields := map[string]*common.Payload{}
		for k, v := range map[string]string{
			workflows.AccountIDKey.GetName(): "acct_1", workflows.ResourceIDKey.GetName(): "refund_1",
			workflows.ResourceTypeKey.GetName(): billing.TypeBillingRefund, workflows.OwnerIDKey.GetName(): owner,
		} {
			if k == workflows.OwnerIDKey.GetName() && v == "" {
				continue // a workflow started before owners were recorded
			}
			p, err := converter.GetDefaultDataConverter().ToPayload(v)
			if err != nil {
				t.Fatal(err)
			}
			fields[k] = p
		}
		return &common.SearchAttributes{IndexedFields: fields}
	}
	for _, tc := range []struct {
		name  string
		owner string
		want  error
	}{
		{"its own", "bil_2", ErrAlreadyStarted},
		{"another billing's", "bil_1", ErrForeignWorkflow},
		{"one from before owners", "", ErrAlreadyStarted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := servicemock.NewMockTemporal(gomock.NewController(t))
			c.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
				Return(nil, serviceerror.NewWorkflowExecutionAlreadyStarted("started", "", ""))
			c.EXPECT().DescribeWorkflowExecution(gomock.Any(), st.ID, "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
				WorkflowExecutionInfo: &workflow.WorkflowExecutionInfo{SearchAttributes: attrs(tc.owner)}}, nil)
			if err := start(context.Background(), c, "q", st, workflows.BillingRefundWorkflow, nil); !errors.Is(err, tc.want) {
				t.Fatalf("start over %s workflow: %v, want %v", tc.name, err, tc.want)
			}
		})
	}
}
