package e2e

import (
	"context"
	"fmt"
	"testing"

	"go.temporal.io/api/workflowservice/v1"
)

// TestOpsFindPaymentsInTemporal proves the ops story: a charge's and a
// transfer's workflows are found by merchant, resource id and status with
// the custom search attributes, and the status follows the transitions.
func TestOpsFindPaymentsInTemporal(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	id, _ := e.paidCharge(m, 12)
	e.fund(m, 50)
	tr := e.call(m.Key, "POST", "/v1/transfer-pix/create", map[string]any{"amount": 5, "pixKey": "ops@example.com", "pixKeyType": "EMAIL"}).m(t)["id"].(string)
	find := func(query string) int {
		res, err := e.app.Temporal.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{
			Namespace: server.GetDefaultNamespace(), Query: query,
		})
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return len(res.GetExecutions())
	}
	for _, q := range []string{
		fmt.Sprintf(`JangadaResourceId = %q AND JangadaStatus = "COMPLETED"`, id),
		fmt.Sprintf(`JangadaAccountId = %q AND JangadaResourceType = "PIX_IN"`, m.ID),
		fmt.Sprintf(`JangadaResourceId = %q AND JangadaResourceType = "PIX_OUT"`, tr),
		fmt.Sprintf(`WorkflowId = "charge/%s"`, id),
	} {
		eventually(t, "Temporal visibility to answer "+q, func() bool { return find(q) == 1 })
	}
}
