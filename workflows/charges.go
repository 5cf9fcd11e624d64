package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
)

// ChargeSignal carries a processor.ChargeNotice to a charge's workflow.
const ChargeSignal = "processor-notice"

// ChargeInput is the charge workflow's input: the whole record, so that the
// workflow's guard step can write the row if it was not committed.
type ChargeInput struct {
	Charge domain.Transaction
}

// ChargeWorkflowID derives the workflow id from the charge id: one workflow per
// charge, and any process can find it.
func ChargeWorkflowID(chargeID string) string { return "charge/" + chargeID }

// ChargeStart is how the API starts a charge's workflow: deferred until the
// charge expires (Start.Delay). A charge costs Temporal one write at create;
// its first workflow task runs when a processor notice arrives as
// Signal-With-Start (service.Inbox), or at expiry. Built when it is used
// (create, sweeper, notice), so the delay is what remains then.
func ChargeStart(t domain.Transaction) Start {
	var delay time.Duration
	if t.ExpiresAt != nil {
		delay = time.Until(t.ExpiresAt.Time)
	}
	return Start{
		ID: ChargeWorkflowID(t.ID), AccountID: t.AccountID, ResourceID: t.ID, ResourceType: t.Type, Status: t.Status, Amount: t.Amount,
		// Ids, amounts and statuses only: descriptions, payers and keys are
		// merchants' data and stay sealed in the payloads.
		Summary: "PIX charge " + t.Amount.Format(),
		Details: "Account `" + t.AccountID + "`, charge `" + t.ID + "`. The first workflow task waits for the charge's expiry " +
			"or a processor notice. To act as the processor, Signal-With-Start `" + ChargeSignal +
			"` with {\"chargeId\":\"" + t.ID + "\",\"outcome\":\"paid\"|\"failed\"|\"expired\"} (a plain signal is read at expiry; " +
			"a notice naming another charge is ignored).",
		Memo:  map[string]any{"chargeId": t.ID, "amount": t.Amount.String()},
		Delay: delay,
	}
}

// chargeDeferredChange marks histories of deferred charges (version 1):
// no guard step, and the transitions run as local activities. Histories
// recorded before (DefaultVersion) replay the guard and the activities.
const chargeDeferredChange = "charge-deferred-start"

var _ = host(ChargeWorkflow)

// ChargeWorkflow drives one PIX charge: PENDING until the processor confirms
// the deposit (COMPLETED), reports a failure (FAILED) or the QR expires at
// expiresAt (CANCELED), whichever comes first. Each transition is one
// idempotent step writing ledger, charge and outbox event together.
func ChargeWorkflow(ctx workflow.Context, in ChargeInput) (string, error) {
	var a *activities.Charges
	deferred := workflow.GetVersion(ctx, chargeDeferredChange, workflow.DefaultVersion, 1) == 1
	// Only a notice naming this charge counts (see addressedChange).
	required := addressedOnly(ctx)
	final := addressedTo(ctx, required, ChargeSignal, in.Charge.ID,
		func(n processor.ChargeNotice) string { return n.ChargeID }, processor.ChargeNotice.Final)
	if !deferred {
		// Started eagerly with a guard that wrote the row if a create had
		// not committed it.
		if err := ensureActivity(ctx, a.EnsureCharge, in.Charge, nil); err != nil {
			return "", err
		}
	}

	notice := processor.ChargeNotice{Outcome: processor.OutcomeExpired}
	var wait time.Duration
	if in.Charge.ExpiresAt != nil {
		wait = in.Charge.ExpiresAt.Sub(workflow.Now(ctx))
	}
	// A notice that arrived while the start was deferred (a plain signal
	// does not end the delay) came before the expiry: it counts.
	if n, ok := receiveNow(ctx, ChargeSignal, final); ok {
		notice = n
	} else if wait > 0 {
		if n, ok := awaitSignal(ctx, ChargeSignal, wait, final); ok {
			notice = n
		}
	}

	var status string
	var err error
	switch notice.Outcome {
	case processor.OutcomePaid:
		err = moneyStep(ctx, deferred, a.SettleCharge, activities.SettleChargeInput{ChargeID: in.Charge.ID, Notice: notice}, &status)
	case processor.OutcomeFailed:
		err = moneyStep(ctx, deferred, a.FailCharge, in.Charge.ID, &status)
	default:
		err = moneyStep(ctx, deferred, a.ExpireCharge, in.Charge.ID, &status)
	}
	if err != nil {
		return "", err
	}
	wakeOwner(ctx, in.Charge, status)
	startFiscalInvoice(ctx, in.Charge, status)
	// A paid notice behind the expiry (the payer paid at the last second,
	// the Inbox forwarded it while the charge was still PENDING) is booked
	// late, not dropped: nothing blocks between this look and the end, so
	// one arriving meanwhile fails the completion and the replayed task
	// finds it here.
	if status == domain.StatusCanceled && workflow.GetVersion(ctx, chargeLateChange, workflow.DefaultVersion, 1) == 1 {
		paid := addressedTo(ctx, required, ChargeSignal, in.Charge.ID, func(n processor.ChargeNotice) string { return n.ChargeID },
			func(n processor.ChargeNotice) bool { return n.Outcome == processor.OutcomePaid })
		if n, ok := receiveNow(ctx, ChargeSignal, paid); ok {
			in2 := activities.SettleChargeInput{ChargeID: in.Charge.ID, Notice: n}
			if err := moneyStep(ctx, deferred, a.SettleCharge, in2, &status); err != nil {
				return "", err
			}
			wakeOwner(ctx, in.Charge, status)
			startFiscalInvoice(ctx, in.Charge, status)
		}
	}
	// Later duplicate notices are harmless: the charge has left PENDING.
	for workflow.GetSignalChannel(ctx, ChargeSignal).ReceiveAsync(nil) {
	}
	return status, setStatus(ctx, status)
}

// chargeLateChange versions the late settle of a paid notice that arrived
// as the charge expired.
const chargeLateChange = "charge-paid-as-it-expired"

// wakeOwner signals the workflow of the product that owns the charge (a
// billing…), if its hook asked for one, now that the transition has
// committed. Only owned charges, which no history before charge owners
// has, record this command, so older histories replay unchanged. An owner
// whose workflow has ended needs no wake: the error is logged, not
// returned (the owner's row already moved in the charge's transaction).
func wakeOwner(ctx workflow.Context, charge domain.Transaction, status string) {
	id, signal, moved, ok := activities.ChargeOwnerWake(charge, status)
	if !ok {
		return
	}
	if err := workflow.SignalExternalWorkflow(ctx, id, "", signal, moved).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Info("charge owner's workflow not signalled", "workflowId", id, "error", err)
	}
}
