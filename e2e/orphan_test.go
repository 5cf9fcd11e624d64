package e2e

import (
	"context"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/workflows"
)

// startChargeWorkflowOnly starts a charge's workflow without the row, as an
// API that crashed between the two steps would leave it.
func startChargeWorkflowOnly(e *env, t domain.Transaction) error {
	_, err := e.app.Temporal.ExecuteWorkflow(context.Background(), workflows.ChargeStart(t).Options(e.app.Cfg.TaskQueue),
		workflows.ChargeWorkflow, workflows.ChargeInput{Charge: t})
	return err
}
