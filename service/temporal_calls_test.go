package service

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/workflows"
)

// What Temporal answers a call to a resource's workflow, as it arrives.
var (
	notFound       = serviceerror.NewNotFound("workflow not found for ID: x")
	completed      = serviceerror.NewNotFound("workflow execution already completed")
	closedID       = serviceerror.NewWorkflowExecutionAlreadyStarted("closed", "", "")
	refusedInvalid = temporal.NewNonRetryableApplicationError("amount is too high", activities.ErrTypeInvalid, nil)
	refusedMoney   = temporal.NewNonRetryableApplicationError("balance is short", activities.ErrTypeInsufficient, nil)
	refusedOther   = temporal.NewNonRetryableApplicationError("the update names another schedule", "WrongSchedule", nil)
	unreachable    = errors.New("connection refused")
)

// The one mapping of Temporal's answers: a business refusal is a 400 with
// its message, a workflow not running is what the caller says of its
// resource, and anything else (Temporal away, a deadline) a 503.
func TestTemporalErrorMapping(t *testing.T) {
	t.Parallel()
	gone := domain.Invalidf("transfer x is no longer in progress")
	for _, tc := range []struct {
		name    string
		err     error
		want    error  // errors.Is; nil: no error
		message string // the domain message, when there is one
	}{
		{"answered", nil, nil, ""},
		{"refused as invalid", refusedInvalid, domain.ErrInvalid, "amount is too high"},
		{"refused for money", refusedMoney, domain.ErrInsufficientBalance, "balance is short"},
		{"refused otherwise", refusedOther, domain.ErrUnavailable, ""},
		{"not found", notFound, gone, "transfer x is no longer in progress"},
		{"already completed", completed, gone, "transfer x is no longer in progress"},
		{"closed, its id not reusable", closedID, gone, "transfer x is no longer in progress"},
		{"the call's deadline", context.DeadlineExceeded, domain.ErrUnavailable, ""},
		{"Temporal's deadline", serviceerror.NewDeadlineExceeded("deadline exceeded"), domain.ErrUnavailable, ""},
		{"an update's wait timed out", client.NewWorkflowUpdateServiceTimeoutOrCanceledError(context.DeadlineExceeded), domain.ErrUnavailable, ""},
		{"unreachable", unreachable, domain.ErrUnavailable, ""},
	} {
		err := temporalError(tc.err, "signal transfer/x", gone)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		var de *domain.Error
		if tc.message != "" && (!errors.As(err, &de) || de.Message != tc.message) {
			t.Errorf("%s: message %q, want %q", tc.name, err, tc.message)
		}
	}
}

// handle is an update's handle whose Get answers out, or err.
type handle struct {
	out any
	err error
}

func (h handle) WorkflowID() string { return "" }
func (h handle) RunID() string      { return "" }
func (h handle) UpdateID() string   { return "" }
func (h handle) Get(_ context.Context, v any) error {
	if h.err == nil && h.out != nil {
		reflect.ValueOf(v).Elem().Set(reflect.ValueOf(h.out))
	}
	return h.err
}

// within fails unless ctx has a deadline at most d from now: every call a
// request makes into Temporal is bounded.
func within(t *testing.T, ctx context.Context, d time.Duration) {
	t.Helper()
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > d {
		t.Errorf("called without a deadline within %s (deadline %v, set %v)", d, dl, ok)
	}
}

// Each way a use case reaches a workflow answers through the one mapping,
// with what a workflow not running means there: a signal's resource is no
// longer in progress (a 400: the processor's notice, the operator's
// decision is refused); an update's resource was read open by the use
// case, so its workflow not running yet (or ending that moment) is a 503
// the merchant retries, never a 400 saying it is closed.
func TestSignalAndUpdateAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		call func(c *servicemock.MockTemporal) error
		want error
	}{
		// signal
		{"signal delivered", signalAnswering(nil), nil},
		{"signal to a workflow not found", signalAnswering(notFound), domain.ErrInvalid},
		{"signal to a completed workflow", signalAnswering(completed), domain.ErrInvalid},
		{"signal past its deadline", signalAnswering(context.DeadlineExceeded), domain.ErrUnavailable},
		{"signal, Temporal away", signalAnswering(unreachable), domain.ErrUnavailable},
		// Signal-With-Start
		{"signal-with-start delivered", signalWithStartAnswering(nil), nil},
		{"signal-with-start to a closed workflow", signalWithStartAnswering(closedID), domain.ErrInvalid},
		{"signal-with-start, Temporal away", signalWithStartAnswering(unreachable), domain.ErrUnavailable},
		// update
		{"update answered", updateAnswering(nil, nil), nil},
		{"update of a workflow not found", updateAnswering(notFound, nil), domain.ErrUnavailable},
		{"update of a completed workflow", updateAnswering(completed, nil), domain.ErrUnavailable},
		{"update refused as invalid", updateAnswering(nil, refusedInvalid), domain.ErrInvalid},
		{"update refused for money", updateAnswering(nil, refusedMoney), domain.ErrInsufficientBalance},
		{"update's wait timed out", updateAnswering(nil, client.NewWorkflowUpdateServiceTimeoutOrCanceledError(context.DeadlineExceeded)), domain.ErrUnavailable},
		{"update, Temporal away", updateAnswering(unreachable, nil), domain.ErrUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := servicemock.NewMockTemporal(gomock.NewController(t))
			err := tc.call(c)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("%v, want %v", err, tc.want)
			}
			if tc.want != nil && errors.Is(err, domain.ErrUnavailable) && errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("%v is both a 400 and a 503", err)
			}
		})
	}
}

func signalAnswering(answer error) func(c *servicemock.MockTemporal) error {
	return func(c *servicemock.MockTemporal) error {
		c.EXPECT().SignalWorkflow(gomock.Any(), "transfer/x", "", workflows.NoticeSignal, "n").DoAndReturn(
			func(ctx context.Context, _, _, _ string, _ any) error { return answer })
		return signal(context.Background(), c, "transfer/x", workflows.NoticeSignal, "n", "transfer x is no longer in progress")
	}
}

func signalWithStartAnswering(answer error) func(c *servicemock.MockTemporal) error {
	return func(c *servicemock.MockTemporal) error {
		l := launch{"thing", "x", workflows.Start{ID: "thing/x", Delay: time.Hour}, workflows.TransferWorkflow, "arg"}
		c.EXPECT().SignalWithStartWorkflow(gomock.Any(), "thing/x", workflows.NoticeSignal, "n", gomock.Any(), gomock.Any(), "arg").DoAndReturn(
			func(ctx context.Context, _, _ string, _ any, o client.StartWorkflowOptions, _ any, _ ...any) (client.WorkflowRun, error) {
				if o.StartDelay != 0 {
					return nil, errors.New("started with a delay")
				}
				return nil, answer
			})
		return signalWithStart(context.Background(), c, "q", l, workflows.NoticeSignal, "n", "thing x has ended")
	}
}

func updateAnswering(call, get error) func(c *servicemock.MockTemporal) error {
	return func(c *servicemock.MockTemporal) error {
		c.EXPECT().UpdateWorkflow(gomock.Any(), gomock.Any()).DoAndReturn(
			func(ctx context.Context, o client.UpdateWorkflowOptions) (client.WorkflowUpdateHandle, error) {
				if o.WorkflowID != "thing/x" || o.UpdateName != "cancel" || o.WaitForStage != client.WorkflowUpdateStageCompleted {
					return nil, errors.New("another update")
				}
				if call != nil {
					return nil, call
				}
				return handle{out: "done", err: get}, nil
			})
		var out string
		err := update(context.Background(), c, "thing/x", "cancel", &out, "target")
		if err == nil && out != "done" {
			return errors.New("the answer was not decoded: " + out)
		}
		return err
	}
}

// A request's signals and updates carry their deadlines: a signal
// TemporalCallTimeout, an update (whose answer may make a transfer)
// UpdateTimeout.
func TestTemporalCallsAreBounded(t *testing.T) {
	t.Parallel()
	c := servicemock.NewMockTemporal(gomock.NewController(t))
	c.EXPECT().SignalWorkflow(gomock.Any(), "transfer/x", "", "s", nil).DoAndReturn(func(ctx context.Context, _, _, _ string, _ any) error {
		within(t, ctx, TemporalCallTimeout)
		return nil
	})
	c.EXPECT().UpdateWorkflow(gomock.Any(), gomock.Any()).DoAndReturn(func(ctx context.Context, _ client.UpdateWorkflowOptions) (client.WorkflowUpdateHandle, error) {
		within(t, ctx, UpdateTimeout)
		return handle{}, nil
	})
	if err := signal(context.Background(), c, "transfer/x", "s", nil, "gone"); err != nil {
		t.Fatal(err)
	}
	if err := update(context.Background(), c, "thing/x", "cancel", new(string)); err != nil {
		t.Fatal(err)
	}
}

// Each product's update names its workflow and puts its target last, as
// the workflow's validator requires.
func TestProductUpdatesNameTheirWorkflowAndTarget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		call     func(c Temporal) error
		workflow string
		args     []any
	}{
		{"PIX automatic", func(c Temporal) error {
			return (&PixAutomatic{Temporal: c}).update(context.Background(), "au_1", workflows.PixAutoCancelInstruction, new(domain.Transaction), "in_1")
		}, workflows.AuthorizationWorkflowID("au_1"), []any{"in_1", workflows.PixAutoTarget{AuthorizationID: "au_1"}}},
		{"schedule", func(c Temporal) error {
			_, err := (&Schedules{Temporal: c}).update(context.Background(), "sc_1", workflows.ScheduleUpdate, schedule.Patch{})
			return err
		}, workflows.ScheduleWorkflowID("sc_1"), []any{schedule.Patch{}, workflows.ScheduleTarget{ScheduleID: "sc_1"}}},
	} {
		c := servicemock.NewMockTemporal(gomock.NewController(t))
		c.EXPECT().UpdateWorkflow(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, o client.UpdateWorkflowOptions) (client.WorkflowUpdateHandle, error) {
			if o.WorkflowID != tc.workflow || !reflect.DeepEqual(o.Args, tc.args) {
				t.Errorf("%s: update of %s with %v, want %s with %v", tc.name, o.WorkflowID, o.Args, tc.workflow, tc.args)
			}
			return nil, completed
		})
		if err := tc.call(c); !errors.Is(err, domain.ErrUnavailable) {
			t.Errorf("%s: workflow completed: %v, want a 503 to retry", tc.name, err)
		}
	}
}

// wakeOwnerKind is a charge owner of these tests whose workflow is woken.
const wakeOwnerKind = "service-test-owner"

var _ = activities.RegisterChargeOwner(wakeOwnerKind, activities.ChargeOwnerHook{
	Moved: func(context.Context, *sqlx.Tx, domain.Transaction, string) error { return nil },
	Wake:  func(id string) (string, string) { return "owner/" + id, "charge-moved" },
})

// The Inbox's wake of a charge's owner goes through signal, with its
// deadline; a failure is logged, never the notice's answer.
func TestInboxWakesTheOwnerThroughSignal(t *testing.T) {
	t.Parallel()
	charge := domain.Transaction{ID: "c1", Status: domain.StatusCompleted,
		Details: domain.SomeJSON(domain.Details{Owner: &domain.ChargeOwner{Kind: wakeOwnerKind, ID: "o1"}})}
	for _, answer := range []error{nil, completed, unreachable} {
		c := servicemock.NewMockTemporal(gomock.NewController(t))
		c.EXPECT().SignalWorkflow(gomock.Any(), "owner/o1", "", "charge-moved",
			activities.ChargeMoved{OwnerKind: wakeOwnerKind, OwnerID: "o1", ChargeID: "c1", Status: domain.StatusCompleted}).DoAndReturn(
			func(ctx context.Context, _, _, _ string, _ any) error {
				within(t, ctx, TemporalCallTimeout)
				return answer
			})
		(&Inbox{Temporal: c}).wakeOwner(context.Background(), charge)
	}
}
