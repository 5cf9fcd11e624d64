package e2e

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/jangada/jangada/app"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/workflows"
)

// startsFail is a Temporal client whose starts never reach the server, as
// when Temporal is down or partitioned from the API.
type startsFail struct{ client.Client }

func (startsFail) ExecuteWorkflow(context.Context, client.StartWorkflowOptions, any, ...any) (client.WorkflowRun, error) {
	return nil, errors.New("temporal unreachable (test)")
}

// A create made while the API cannot reach Temporal still answers with the
// resource it committed; the worker's sweeper starts the workflow after
// the request's grace, and the payment then runs its normal course.
func TestCreatesDuringATemporalOutageStartLater(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.SandboxAutoSettle, cfg.SandboxSettle = true, 300*time.Millisecond
	a, err := app.New(context.Background(), cfg, app.Options{API: true, Worker: true, Temporal: temporalClient})
	if err != nil {
		t.Fatal(err)
	}
	limitIdle(a)
	a.Starts.Temporal = startsFail{temporalClient}
	a.Transfers.Temporal = startsFail{temporalClient}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { shutdown(a) })
	e := envOf(t, a)
	m := e.merchant()
	e.fund(m, 100)

	charge := e.createCharge(m, map[string]any{"amount": 10, "description": "Venda"})
	id := charge["id"].(string)
	if charge["status"] != "PENDING" {
		t.Fatalf("charge created during the outage: %v", charge)
	}
	// A charge paid before any start reached Temporal: the notice's
	// Signal-With-Start starts its workflow, and the payment settles at
	// once, not at the sweeper's start nor at the charge's expiry.
	early := e.createCharge(m, map[string]any{"amount": 7, "description": "Venda paga cedo"})["id"].(string)
	e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+early+"/pay", nil)
	e.waitStatus(m, early, "COMPLETED")
	r := e.call(m.Key, "POST", "/v1/transfer-pix/create", map[string]any{"amount": 5, "pixKey": "a@example.com", "pixKeyType": "EMAIL"})
	if r.Status != 200 {
		t.Fatalf("transfer during the outage: %d %s", r.Status, r.Message)
	}
	transfer := r.m(t)["id"].(string)

	started := func(wid string) func() bool {
		return func() bool {
			_, err := temporalClient.DescribeWorkflowExecution(context.Background(), wid, "")
			return err == nil
		}
	}
	within := service.LaunchGrace + 3*app.LaunchSweepInterval + 10*time.Second
	eventuallyWithin(t, within, "the sweeper to start the charge's workflow", started(workflows.ChargeWorkflowID(id)))
	eventuallyWithin(t, within, "the sweeper to start the transfer's workflow", started(workflows.TransferWorkflowID(transfer)))

	e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", nil)
	e.waitStatus(m, id, "COMPLETED")
	e.waitTransfer(m, transfer, "COMPLETED")
	eventually(t, "every workflow intent to be cleared", func() bool {
		var left int
		return a.DB.Get(&left, `SELECT count(*) FROM workflow_launches`) == nil && left == 0
	})
	e.verifyLedger()
}
