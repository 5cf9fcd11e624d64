package sandbox

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/jangada/jangada/processor"
)

// The sandbox registrar keeps one record per billing of what happened to
// it: a payment taken or the boleto voided. A real registrar keeps it in a
// row; the sandbox keeps no database, so the record is a workflow of the
// simulated network with the id sandbox/billing/<id>, and Temporal's
// refusal of a second workflow with that id makes the first of a payment
// and a void the one that counts, whichever process asks. A payment's
// record also redelivers its notice after RedeliverAfter (a real
// registrar's webhook retry), so a notice lost with its process is not
// lost money.

// KindBilling is the registrar's record of a billing (a payment's
// redelivery; a void delivers nothing).
const KindBilling = "billing"

// outcomeVoided is a voided boleto's record.
const outcomeVoided = "voided"

// RedeliverAfter is when a payment's record delivers its notice again.
const RedeliverAfter = time.Minute

// claimBilling records outcome for the billing unless something is
// recorded already; it answers the outcome that counts.
func (s *Sandbox) claimBilling(ctx context.Context, id, outcome string) (string, error) {
	wid := networkID(KindBilling, id)
	d := Delivery{Kind: KindBilling, ID: id, Outcome: outcome}
	if outcome == processor.OutcomePaid {
		d.After = RedeliverAfter
	}
	_, err := s.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: wid, TaskQueue: s.TaskQueue,
		WorkflowIDReusePolicy:                    enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		Memo:                                     map[string]any{"outcome": outcome},
		StaticSummary:                            "Sandbox registrar: billing " + id + " " + outcome,
	}, NetworkWorkflow, d)
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	if err == nil || !errors.As(err, &already) {
		return outcome, err
	}
	desc, err := s.Temporal.DescribeWorkflowExecution(ctx, wid, "")
	if err != nil {
		return "", err
	}
	var got string
	p := desc.GetWorkflowExecutionInfo().GetMemo().GetFields()["outcome"]
	if err := converter.GetDefaultDataConverter().FromPayload(p, &got); err != nil {
		return "", fmt.Errorf("sandbox: billing %s record: %w", id, err)
	}
	return got, nil
}

// CancelBoleto voids the boleto unless the registrar took a payment of it
// first (processor.ErrBoletoPaid); voiding twice is voiding once.
func (s *Sandbox) CancelBoleto(ctx context.Context, r processor.BoletoCancelRequest) error {
	got, err := s.claimBilling(ctx, r.BillingID, outcomeVoided)
	if err != nil {
		return err
	}
	if got != outcomeVoided {
		return processor.ErrBoletoPaid
	}
	return nil
}

// PayBilling simulates the payer paying a boleto or card billing: the
// registrar takes the payment unless it voided the boleto
// (processor.ErrBoletoVoided), and notifies it at once (again, after
// RedeliverAfter, from its record; a payment asked again notifies again).
func (s *Sandbox) PayBilling(ctx context.Context, billingID string) error {
	got, err := s.claimBilling(ctx, billingID, processor.OutcomePaid)
	if err != nil {
		return err
	}
	if got == outcomeVoided {
		return fmt.Errorf("%w: billing %s", processor.ErrBoletoVoided, billingID)
	}
	return s.billingPaid(ctx, billingID)
}

// billingPaid sends the registrar's paid notice.
func (s *Sandbox) billingPaid(ctx context.Context, billingID string) error {
	return s.Inbox.BillingNotice(ctx, billingID, processor.BillingNotice{Outcome: processor.OutcomePaid, At: time.Now().UTC(),
		ReferenceID: "sbx_pay_" + processor.TxID(billingID)[:20]})
}
