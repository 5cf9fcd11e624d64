package sandbox_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/sandbox"
)

// idsClient keeps the sandbox's delivery workflows as a server would, by
// id and status: a start of an id taken is rejected (REJECT_DUPLICATE), a
// cancel or terminate of an unknown id is not found, and no workflow runs.
type idsClient struct {
	client.Client
	mu     sync.Mutex
	status map[string]enums.WorkflowExecutionStatus
	starts int // starts accepted
}

func (c *idsClient) ExecuteWorkflow(_ context.Context, o client.StartWorkflowOptions, _ any, _ ...any) (client.WorkflowRun, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.status[o.ID]; ok {
		return nil, serviceerror.NewWorkflowExecutionAlreadyStarted("taken: "+o.ID, "", "")
	}
	c.status[o.ID] = enums.WORKFLOW_EXECUTION_STATUS_RUNNING
	c.starts++
	return nil, nil
}

func (c *idsClient) close(id string, to enums.WorkflowExecutionStatus) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.status[id] != enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
		return serviceerror.NewNotFound("workflow not found: " + id)
	}
	c.status[id] = to
	return nil
}

func (c *idsClient) CancelWorkflow(_ context.Context, id, _ string) error {
	return c.close(id, enums.WORKFLOW_EXECUTION_STATUS_CANCELED)
}

func (c *idsClient) TerminateWorkflow(_ context.Context, id, _, _ string, _ ...any) error {
	return c.close(id, enums.WORKFLOW_EXECUTION_STATUS_TERMINATED)
}

func (c *idsClient) DescribeWorkflowExecution(_ context.Context, id, _ string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.status[id]
	if !ok {
		return nil, serviceerror.NewNotFound("workflow not found: " + id)
	}
	return &workflowservice.DescribeWorkflowExecutionResponse{WorkflowExecutionInfo: &workflowpb.WorkflowExecutionInfo{Status: st}}, nil
}

func (c *idsClient) GetWorkflow(_ context.Context, id, _ string) client.WorkflowRun {
	return idsRun{c: c, id: id}
}

type idsRun struct {
	client.WorkflowRun
	c  *idsClient
	id string
}

func (r idsRun) Get(context.Context, any) error {
	r.c.mu.Lock()
	defer r.c.mu.Unlock()
	st, ok := r.c.status[r.id]
	if !ok {
		return serviceerror.NewNotFound("workflow not found: " + r.id)
	}
	switch st {
	case enums.WORKFLOW_EXECUTION_STATUS_CANCELED:
		return temporal.NewCanceledError()
	case enums.WORKFLOW_EXECUTION_STATUS_TERMINATED:
		return &temporal.TerminatedError{}
	case enums.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		return nil
	}
	return errors.New("unexpected wait for " + r.id)
}

// A cancel that comes before the recharge was submitted (the merchant
// cancels between SubmitRecharge's read and its call) answers nil, and the
// submit that follows is refused with ErrRechargeWithdrawn: no delivery is
// armed, so the operator never tops the phone up for a recharge whose
// money went back to the merchant.
func TestSandboxRechargeCancelledBeforeSubmitIsRefused(t *testing.T) {
	t.Parallel()
	c := &idsClient{status: map[string]enums.WorkflowExecutionStatus{}}
	sb := &sandbox.Sandbox{Temporal: c, SettleAfter: time.Minute}
	first, second := domain.NewID(""), domain.NewID("")
	if err := sb.CancelRecharge(context.Background(), first); err != nil {
		t.Fatalf("cancel of a recharge never submitted = %v, want nil", err)
	}
	armed := c.starts
	_, err := sb.Recharge(context.Background(), processor.RechargeRequest{ID: first, Phone: "11987654321", Operator: "VIVO", Amount: 1500})
	if !errors.Is(err, processor.ErrRechargeWithdrawn) {
		t.Fatalf("submit after the cancel = %v, want ErrRechargeWithdrawn", err)
	}
	if c.starts != armed {
		t.Fatalf("the submit armed a delivery after the cancel")
	}
	if err := sb.CancelRecharge(context.Background(), first); err != nil {
		t.Fatalf("a retried cancel = %v, want nil", err)
	}

	// A submit that came first is armed, and the cancel withdraws it.
	if _, err := sb.Recharge(context.Background(), processor.RechargeRequest{ID: second, Phone: "11987654321"}); err != nil {
		t.Fatalf("submit = %v", err)
	}
	if err := sb.CancelRecharge(context.Background(), second); err != nil {
		t.Fatalf("cancel of an armed delivery = %v, want nil", err)
	}
	if _, err := sb.Recharge(context.Background(), processor.RechargeRequest{ID: second, Phone: "11987654321"}); !errors.Is(err, processor.ErrRechargeWithdrawn) {
		t.Fatalf("a retried submit after the cancel = %v, want ErrRechargeWithdrawn", err)
	}
}
