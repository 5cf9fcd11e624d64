package sandbox

import (
	"context"
	"errors"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

// The sandbox's mobile operators. A real aggregator looks the number up
// (numbers move between operators with portability); the sandbox's rule,
// documented in README.md, is the second digit of the nine-digit number
// (the one after the leading 9):
//
//	0–2 → CLARO, 3–5 → VIVO, 6–7 → TIM, 8–9 → OI
//
// and a number ending in 0000 is not active: its recharge FAILs when the
// operator processes it.
const (
	OperatorClaro = "CLARO"
	OperatorVivo  = "VIVO"
	OperatorTim   = "TIM"
	OperatorOi    = "OI"
)

// RechargeAmounts are the amounts each sandbox operator sells (BRL).
var RechargeAmounts = map[string][]money.Cents{
	OperatorClaro: {1000, 1500, 2000, 3000, 4000, 5000, 10000},
	OperatorVivo:  {1500, 2000, 2500, 3000, 3500, 4000, 5000, 10000},
	OperatorTim:   {1000, 1500, 2000, 2500, 3000, 4000, 5000, 10000},
	OperatorOi:    {1200, 1500, 2000, 3000, 4000, 5000, 10000},
}

// OperatorOf is the sandbox's operator of a mobile number (see above).
func OperatorOf(p mobile.MobileNumber) string {
	switch d := p.Number[1]; {
	case d <= '2':
		return OperatorClaro
	case d <= '5':
		return OperatorVivo
	case d <= '7':
		return OperatorTim
	}
	return OperatorOi
}

// inactive reports whether the sandbox fails recharges of the number.
func inactive(phone string) bool { return strings.HasSuffix(phone, "0000") }

// RechargeOffer answers the number's operator and its amounts.
func (s *Sandbox) RechargeOffer(_ context.Context, p mobile.MobileNumber) (processor.RechargeOffer, error) {
	op := OperatorOf(p)
	return processor.RechargeOffer{Operator: op, Amounts: RechargeAmounts[op]}, nil
}

// Recharge accepts the top-up and, with auto-settlement, arms its delivery
// after SettleAfter. A top-up withdrawn already (CancelRecharge: its
// delivery's workflow closed canceled or terminated) is refused with
// processor.ErrRechargeWithdrawn: the delivery's id is taken (its start,
// REJECT_DUPLICATE, arms nothing) and it will never be delivered.
func (s *Sandbox) Recharge(ctx context.Context, r processor.RechargeRequest) (processor.Submission, error) {
	sub := processor.Submission{ReferenceID: "sbx_rch_" + processor.TxID(r.ID)[20:]}
	if s.SettleAfter <= 0 {
		return sub, nil
	}
	if err := s.later(ctx, Delivery{Kind: KindRecharge, ID: r.ID, Phone: r.Phone}); err != nil {
		return sub, err
	}
	d, err := s.Temporal.DescribeWorkflowExecution(ctx, networkID(KindRecharge, r.ID), "")
	if err != nil {
		return sub, err
	}
	switch d.GetWorkflowExecutionInfo().GetStatus() {
	case enums.WORKFLOW_EXECUTION_STATUS_CANCELED, enums.WORKFLOW_EXECUTION_STATUS_TERMINATED:
		return processor.Submission{}, processor.ErrRechargeWithdrawn
	}
	return sub, nil
}

// withdrawnHold is how long a withdrawal's marker would sleep before
// delivering, were it ever to run: never, it is terminated at once.
const withdrawnHold = 10 * 365 * 24 * time.Hour

// CancelRecharge withdraws the top-up truthfully: it cancels the armed
// delivery and waits for its workflow to close. A delivery workflow that
// completed (the notice ran, before or despite the cancel: NetworkWorkflow
// waits for a running delivery step) means the operator delivered, and the
// answer is processor.ErrAlreadyDelivered; one that closed canceled will
// never deliver. One never armed (the submit has not come yet) is marked
// withdrawn (withdraw), so a Recharge that comes after is refused.
func (s *Sandbox) CancelRecharge(ctx context.Context, id string) error {
	if s.SettleAfter <= 0 {
		return nil
	}
	wid := networkID(KindRecharge, id)
	err := s.Temporal.CancelWorkflow(ctx, wid, "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		marked, err := s.withdraw(ctx, id)
		if err != nil || marked {
			return err
		}
		// A delivery of that id exists (closed, or armed since): cancel it.
		if err := s.Temporal.CancelWorkflow(ctx, wid, ""); err != nil && !errors.As(err, &nf) {
			return err
		}
	} else if err != nil {
		return err
	}
	err = s.Temporal.GetWorkflow(ctx, wid, "").Get(ctx, nil)
	var canceled *temporal.CanceledError
	var terminated *temporal.TerminatedError
	switch {
	case err == nil:
		return processor.ErrAlreadyDelivered
	case errors.As(err, &canceled), errors.As(err, &terminated), errors.As(err, &nf):
		return nil
	}
	return err
}

// withdraw leaves the marker of a top-up withdrawn before it was
// submitted: its delivery's workflow id, started (delayed, with nothing to
// deliver for years) and terminated at once, so Recharge's own start of it
// is rejected and Recharge refuses the top-up. It reports false when a
// delivery of that id exists already (Recharge came first).
func (s *Sandbox) withdraw(ctx context.Context, id string) (bool, error) {
	wid := networkID(KindRecharge, id)
	_, err := s.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: wid, TaskQueue: s.TaskQueue, StartDelay: withdrawnHold,
		WorkflowIDReusePolicy:                    enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		StaticSummary:                            "Sandbox network: recharge " + id + " withdrawn before it was submitted",
	}, NetworkWorkflow, Delivery{Kind: KindRecharge, ID: id, After: withdrawnHold})
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &already) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, s.Temporal.TerminateWorkflow(ctx, wid, "", "recharge withdrawn before it was submitted")
}

// CompleteRecharge simulates the operator delivering the recharge (or
// failing it for an inactive number); it returns the outcome notified.
func (s *Sandbox) CompleteRecharge(ctx context.Context, id, phone string) (string, error) {
	n := processor.RechargeNotice{Outcome: processor.OutcomeCompleted, At: time.Now().UTC()}
	if inactive(phone) {
		n.Outcome, n.Reason = processor.OutcomeFailed, "the number is not active at its operator"
	}
	return n.Outcome, s.Inbox.RechargeNotice(ctx, id, n)
}

// KindRecharge is an operator's delivery of a recharge.
const KindRecharge = "recharge"

// A recharge's cancel waits for a running delivery: the operator either
// delivered it or never will.
var _ = onDeliveryWaited(KindRecharge, func(s *Sandbox, ctx context.Context, d Delivery) error {
	_, err := s.CompleteRecharge(ctx, d.ID, d.Phone)
	return err
})
