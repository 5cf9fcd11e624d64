package sandbox_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
	"github.com/jangada/jangada/processor/sandbox"
)

// networkClient is the Temporal client CancelRecharge talks to, backed by
// one NetworkWorkflow run in a test environment: CancelWorkflow hands the
// cancel to the environment (which is single-threaded: the test's delayed
// callback applies it), and the run's Get answers the workflow's own close
// once the environment has run it to the end, as a server's would.
type networkClient struct {
	client.Client
	env    *testsuite.TestWorkflowEnvironment
	asked  chan struct{} // CancelWorkflow was called
	closed chan struct{} // the run has closed; result is its outcome
	result error
	armed  bool // false: no workflow of that id exists
}

func (c *networkClient) CancelWorkflow(_ context.Context, id, _ string) error {
	if !c.armed {
		return serviceerror.NewNotFound("workflow not found: " + id)
	}
	select {
	case <-c.closed: // a closed run cannot be canceled
		return serviceerror.NewNotFound("workflow execution already completed")
	default:
	}
	close(c.asked)
	return nil
}

// ExecuteWorkflow is CancelRecharge's start of a withdrawal marker: the
// delivery's id is taken (REJECT_DUPLICATE), so it is rejected.
func (c *networkClient) ExecuteWorkflow(_ context.Context, o client.StartWorkflowOptions, _ any, _ ...any) (client.WorkflowRun, error) {
	return nil, serviceerror.NewWorkflowExecutionAlreadyStarted("taken: "+o.ID, "", "")
}

func (c *networkClient) GetWorkflow(_ context.Context, id, _ string) client.WorkflowRun {
	return networkRun{c: c, id: id}
}

type networkRun struct {
	client.WorkflowRun
	c  *networkClient
	id string
}

func (r networkRun) Get(ctx context.Context, _ any) error {
	if !r.c.armed {
		return serviceerror.NewNotFound("workflow not found: " + r.id)
	}
	select {
	case <-r.c.closed:
		return r.c.result
	case <-ctx.Done():
		return ctx.Err()
	}
}

// rechargeNetwork arms a recharge's delivery (the NetworkWorkflow
// Sandbox.Recharge starts) in a test environment, behind a networkClient.
func rechargeNetwork(t *testing.T) (*sandbox.Sandbox, *networkClient, *processormock.MockInbox) {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	inbox := processormock.NewMockInbox(gomock.NewController(t))
	c := &networkClient{env: env, asked: make(chan struct{}), closed: make(chan struct{}), armed: true}
	sb := &sandbox.Sandbox{Inbox: inbox, Temporal: c, SettleAfter: time.Minute}
	sb.Register(env)
	return sb, c, inbox
}

// run executes the delivery to its close and publishes its outcome.
func (c *networkClient) run(id string) {
	c.env.ExecuteWorkflow(sandbox.NetworkWorkflow, sandbox.Delivery{Kind: sandbox.KindRecharge, ID: id, Phone: "11987654321", After: time.Minute})
	c.result = c.env.GetWorkflowError()
	close(c.closed)
}

// A cancel before the operator delivers cancels the armed delivery, waits
// for its workflow to close canceled, and answers nil: the operator never
// hears of the recharge.
func TestSandboxRechargeCancelBeforeDelivery(t *testing.T) {
	t.Parallel()
	sb, c, inbox := rechargeNetwork(t)
	inbox.EXPECT().RechargeNotice(gomock.Any(), gomock.Any(), gomock.Any()).Times(0)
	answer := make(chan error, 1)
	c.env.RegisterDelayedCallback(func() {
		go func() { answer <- sb.CancelRecharge(context.Background(), "rch_1") }()
		<-c.asked
		c.env.CancelWorkflow() // the server applies the cancel CancelRecharge asked for
	}, 30*time.Second)
	c.run("rch_1")
	if err := <-answer; err != nil {
		t.Fatalf("cancel before delivery = %v, want nil", err)
	}
	if !errors.As(c.result, new(*temporal.CanceledError)) {
		t.Fatalf("delivery closed with %v, want canceled", c.result)
	}
}

// After the operator delivered (the delivery workflow completed), the cancel
// finds it closed and answers processor.ErrAlreadyDelivered.
func TestSandboxRechargeCancelAfterDelivery(t *testing.T) {
	t.Parallel()
	sb, c, inbox := rechargeNetwork(t)
	inbox.EXPECT().RechargeNotice(gomock.Any(), "rch_2", gomock.Any()).DoAndReturn(
		func(_ context.Context, _ string, n processor.RechargeNotice) error {
			if n.Outcome != processor.OutcomeCompleted {
				t.Errorf("notice %+v, want completed", n)
			}
			return nil
		}).Times(1)
	c.run("rch_2")
	if c.result != nil {
		t.Fatalf("delivery closed with %v, want completed", c.result)
	}
	if err := sb.CancelRecharge(context.Background(), "rch_2"); !errors.Is(err, processor.ErrAlreadyDelivered) {
		t.Fatalf("cancel after delivery = %v, want ErrAlreadyDelivered", err)
	}
}
