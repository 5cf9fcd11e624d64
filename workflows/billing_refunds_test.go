package workflows

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
)

// TestBillingRefundWorkflowRetriesUntilTheProcessorAnswers: the refund's
// one activity fails transiently, is retried by Temporal, and its outcome
// (a refusal recorded as FAILED by the activity) is the workflow's result;
// the workflow holds no other step.
func TestBillingRefundWorkflowRetriesUntilTheProcessorAnswers(t *testing.T) {
	for _, outcome := range []string{domain.StatusCompleted, domain.StatusFailed} {
		t.Run(outcome, func(t *testing.T) {
			var s testsuite.WorkflowTestSuite
			env := s.NewTestWorkflowEnvironment()
			env.SetTestTimeout(time.Minute) // wall clock: the machine may be busy
			var got []activities.BillingRefundRef
			env.RegisterActivityWithOptions(func(_ context.Context, in activities.BillingRefundRef) (string, error) {
				got = append(got, in)
				if len(got) == 1 {
					return "", errors.New("acquirer timeout")
				}
				return outcome, nil
			}, activity.RegisterOptions{Name: actName(billingActs.SubmitBillingRefund)})
			env.ExecuteWorkflow(BillingRefundWorkflow, BillingRefundInput{BillingID: "bil_1", RefundID: "ref_1"})
			if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
				t.Fatalf("workflow: completed %v, error %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
			}
			var status string
			if err := env.GetWorkflowResult(&status); err != nil || status != outcome {
				t.Fatalf("result = %s, %v; want %s", status, err, outcome)
			}
			want := activities.BillingRefundRef{BillingID: "bil_1", RefundID: "ref_1"}
			if len(got) != 2 || got[0] != want || got[1] != want {
				t.Fatalf("activity calls %v, want the refund twice (one retry)", got)
			}
		})
	}
}

// TestBillingRefundWorkflowIDIsTheRefunds: one workflow per refund.
func TestBillingRefundWorkflowIDIsTheRefunds(t *testing.T) {
	st := BillingRefundStart(billing.Billing{ID: "bil_1", AccountID: "acc_1"}, "ref_1", 500)
	if st.ID != "billing-refund/ref_1" || st.ResourceID != "ref_1" {
		t.Fatalf("start = %+v", st)
	}
}
