package sandbox

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/boleto"
	"github.com/jangada/jangada/processor"
)

// The sandbox plays the boleto registrar and the card acquirer too.

// Sandbox cards (CONTRACTS.md): DeclinedCard is declined, every other
// valid number is approved.
const (
	ApprovedCard = "4111111111111111"
	DeclinedCard = "4000000000000002"
)

// BoletoBank is the bank code of the sandbox's boletos.
const BoletoBank = "999"

// KindCard is the delivery of a card sale's answer.
const KindCard = "card"

var _ = onDelivery(KindCard, func(s *Sandbox, ctx context.Context, d Delivery) error {
	return s.cardAnswer(ctx, d.ID, d.Outcome)
})

// Sandbox vault tokens say what the simulated acquirer will answer: the
// sandbox keeps no card, so the token carries the one thing it needs.
const (
	tokenApproves = "sbxcard_a_"
	tokenDeclines = "sbxcard_d_"
)

// RegisterBoleto builds a real FEBRABAN boleto for the billing: bank 999,
// the free field derived from the billing id (our number).
func (s *Sandbox) RegisterBoleto(_ context.Context, r processor.BoletoRequest) (processor.BoletoSlip, error) {
	b, err := boleto.New(BoletoBank, r.DueDate, r.Amount, freeField(r.ID))
	if err != nil {
		return processor.BoletoSlip{}, err
	}
	return processor.BoletoSlip{ReferenceID: "sbx_bol_" + processor.TxID(r.ID)[:20], Barcode: b.Barcode, DigitableLine: b.DigitableLine}, nil
}

// freeField is 25 digits derived from the billing id, so a retried
// registration answers the same boleto.
func freeField(id string) string {
	sum := sha256.Sum256([]byte(id))
	n := new(big.Int).SetBytes(sum[:])
	d := n.Text(10)
	return d[len(d)-25:]
}

// TokenizeCard answers a vault token for the card; the declining sandbox
// card gets a token whose sales are declined. The number is not kept.
func (s *Sandbox) TokenizeCard(_ context.Context, r processor.CardTokenRequest) (processor.CardToken, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return processor.CardToken{}, err
	}
	prefix := tokenApproves
	if r.Card.Number == DeclinedCard {
		prefix = tokenDeclines
	}
	return processor.CardToken{Token: prefix + hex.EncodeToString(b[:]), Brand: r.Card.Brand, Last4: r.Card.Last4}, nil
}

// ChargeCard accepts the sale and has the acquirer's answer delivered at
// once (a durable delivery, like a settlement): approved, or declined for
// the declining card's token.
func (s *Sandbox) ChargeCard(ctx context.Context, r processor.CardChargeRequest) (processor.Submission, error) {
	if !strings.HasPrefix(r.Token, "sbxcard_") {
		return processor.Submission{}, fmt.Errorf("sandbox: %q is not a sandbox card token", r.Token)
	}
	outcome := processor.OutcomePaid
	if strings.HasPrefix(r.Token, tokenDeclines) {
		outcome = processor.OutcomeFailed
	}
	sub := processor.Submission{ReferenceID: "sbx_card_" + processor.TxID(r.ID)[:20]}
	return sub, s.laterAfter(ctx, Delivery{Kind: KindCard, ID: r.ID, Outcome: outcome}, 0)
}

// RefusedRefundCents is the sandbox's refund rule: a billing refund whose
// amount ends in these centavos (R$ x,13) is refused
// (processor.ErrRefundRefused); every other refund is accepted.
const RefusedRefundCents = 13

// RefundBilling accepts the refund (the sandbox returns the money at once),
// or refuses one whose amount ends in RefusedRefundCents centavos. Its
// answer depends on the request only, so asking again answers the same.
func (s *Sandbox) RefundBilling(_ context.Context, r processor.BillingRefundRequest) (processor.Submission, error) {
	if r.Amount%100 == RefusedRefundCents {
		return processor.Submission{}, fmt.Errorf("%w: sandbox refuses refunds of amounts ending in ,%02d (refund %s)", processor.ErrRefundRefused, RefusedRefundCents, r.RefundID)
	}
	return processor.Submission{ReferenceID: "sbx_bref_" + processor.TxID(r.RefundID)[:20]}, nil
}

// OverdueBilling simulates the billing's due date passing now.
func (s *Sandbox) OverdueBilling(ctx context.Context, billingID string) error {
	return s.Inbox.BillingNotice(ctx, billingID, processor.BillingNotice{Outcome: processor.OutcomeOverdue, At: time.Now().UTC()})
}

// cardAnswer delivers a card sale's answer.
func (s *Sandbox) cardAnswer(ctx context.Context, billingID, outcome string) error {
	n := processor.BillingNotice{Outcome: outcome, At: time.Now().UTC(), ReferenceID: "sbx_card_" + processor.TxID(billingID)[:20]}
	if outcome == processor.OutcomeFailed {
		n.Reason = "card declined by the issuer"
	}
	return s.Inbox.BillingNotice(ctx, billingID, n)
}

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

// A registrar's record of a billing: a payment's notice again.
var _ = onDelivery(KindBilling, func(s *Sandbox, ctx context.Context, d Delivery) error {
	if d.Outcome != processor.OutcomePaid {
		return nil
	}
	return s.billingPaid(ctx, d.ID)
})

// outcomeVoided is a voided boleto's record.
const outcomeVoided = "voided"

// RedeliverAfter is when a payment's record delivers its notice again.
const RedeliverAfter = time.Minute

// claimBilling records outcome for the billing unless something is
// recorded already; it answers the outcome that counts. The record's
// workflow type says which (its memo and input are sealed by the payload
// codec): NetworkWorkflow redelivering a payment, or BoletoVoidWorkflow.
func (s *Sandbox) claimBilling(ctx context.Context, id, outcome string) (string, error) {
	wid := networkID(KindBilling, id)
	opts := client.StartWorkflowOptions{
		ID: wid, TaskQueue: s.TaskQueue,
		WorkflowIDReusePolicy:                    enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		StaticSummary:                            "Sandbox registrar: billing " + id + " " + outcome,
	}
	var err error
	if outcome == outcomeVoided {
		_, err = s.Temporal.ExecuteWorkflow(ctx, opts, BoletoVoidWorkflow, id)
	} else {
		_, err = s.Temporal.ExecuteWorkflow(ctx, opts, NetworkWorkflow, Delivery{Kind: KindBilling, ID: id, Outcome: outcome, After: RedeliverAfter})
	}
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	if err == nil || !errors.As(err, &already) {
		return outcome, err
	}
	desc, err := s.Temporal.DescribeWorkflowExecution(ctx, wid, "")
	if err != nil {
		return "", fmt.Errorf("sandbox: billing %s record: %w", id, err)
	}
	if desc.GetWorkflowExecutionInfo().GetType().GetName() == voidWorkflowName {
		return outcomeVoided, nil
	}
	return processor.OutcomePaid, nil
}

// voidWorkflowName is BoletoVoidWorkflow's registered name.
const voidWorkflowName = "BoletoVoidWorkflow"

// BoletoVoidWorkflow is the registrar's record that it voided a boleto: it
// does nothing, its id (taken before any payment's) is the record.
func BoletoVoidWorkflow(workflow.Context, string) error { return nil }

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
