package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/processor"
)

// Billing signals: the processor's notices (processor.BillingNotice), a PIX
// billing's charge that moved (activities.ChargeMoved, sent by the charge's
// workflow), the cancel use case's word that the billing was canceled and
// the card a debit card billing's payer gave on its invoice page
// (activities.DebitCardInput: the token's id only).
const (
	BillingSignal          = "processor-notice"
	BillingChargeSignal    = activities.BillingChargeSignal
	BillingCancelSignal    = "billing-canceled"
	BillingDebitCardSignal = "debit-card"
)

// BillingInput is the billing workflow's input: the billing as created.
type BillingInput struct {
	Billing billing.Billing
}

// BillingWorkflowID derives the workflow id from the billing id.
func BillingWorkflowID(billingID string) string { return activities.BillingWorkflowIDOf(billingID) }

// BillingStart is how a billing's workflow is started. A billing that
// waits for its payer (boleto, PIX, debit card) is started deferred until
// the end of its due date, like a charge: one write to Temporal at create,
// and its first task runs when a processor notice arrives as
// Signal-With-Start (service.Inbox) or the due date ends. A credit or
// voucher card billing starts at once: its first step submits the sale.
func BillingStart(b billing.Billing) Start {
	var delay time.Duration
	if b.Method != domain.MethodCardCredit && b.Method != domain.MethodCardVoucher {
		delay = time.Until(billing.DueEnd(b.DueDate))
	}
	return Start{
		ID: BillingWorkflowID(b.ID), AccountID: b.AccountID, ResourceID: b.ID, ResourceType: "BILLING_" + b.Method,
		Status: b.Status, Amount: b.Amount,
		Summary: "Billing " + b.Method + " " + b.Amount.Format(),
		Details: "Account `" + b.AccountID + "`, billing `" + b.ID + "` due " + b.DueDate.Format(time.DateOnly) +
			". To act as the processor, Signal-With-Start `" + BillingSignal + "` with {\"billingId\":\"" + b.ID +
			"\",\"outcome\":\"paid\"|\"failed\"|\"overdue\"}.",
		Memo:  map[string]any{"billingId": b.ID, "amount": b.Amount.String(), "method": b.Method},
		Delay: delay,
	}
}

// billingWake is what woke a billing's workflow.
type billingWake struct {
	notice   *processor.BillingNotice
	charge   *activities.ChargeMoved
	debit    *activities.DebitCardInput
	canceled bool
	timer    bool
}

var _ = host(BillingWorkflow)

// BillingWorkflow drives one billing: a card sale is submitted; then the
// billing waits, PENDING, for the processor (paid: RECEIVED, or CONFIRMED
// for a card until its credit date, then RECEIVED; declined: FAILED) until
// the end of its due date in America/Sao_Paulo, when it becomes OVERDUE
// (a durable timer); still payable, it waits BillingPayableAfterDue more and
// is then CANCELED. A PIX billing moves with its charge (the charge owner
// hook) and is only told here. A debit card billing's sale is submitted
// when its payer gives a card on the invoice page (the debit signal; once:
// a second card is not charged), and its answer arrives as a card's. Each
// transition is one idempotent local activity (moneyStep) writing ledger
// and record together.
func BillingWorkflow(ctx workflow.Context, in BillingInput) (string, error) {
	var a *activities.Billings
	b := in.Billing
	status := b.Status
	debitSubmitted := false
	if b.Method == domain.MethodCardCredit || b.Method == domain.MethodCardVoucher {
		if err := workflow.ExecuteActivity(moneyActivities(ctx), a.SubmitCard, b.ID).Get(ctx, nil); err != nil {
			return "", err
		}
	}
	dueEnd := billing.DueEnd(b.DueDate)
	for status == billing.BillingPending || status == billing.BillingOverdue {
		deadline := dueEnd
		if status == billing.BillingOverdue {
			deadline = dueEnd.Add(billing.BillingPayableAfterDue)
		}
		w := awaitBilling(ctx, b.ID, deadline.Sub(workflow.Now(ctx)))
		var err error
		switch {
		case w.canceled:
			status = billing.BillingCanceled
		case w.charge != nil:
			status = billingStatusOfCharge(w.charge.Status, status)
		case w.debit != nil:
			if b.Method != domain.MethodCardDebit || debitSubmitted {
				continue
			}
			// An outside call: an ordinary activity, retried until the
			// acquirer accepts the sale (idempotent on the billing id).
			debitSubmitted = true
			err = workflow.ExecuteActivity(moneyActivities(ctx), a.ChargeDebitCard, *w.debit).Get(ctx, nil)
		case w.timer && status == billing.BillingPending, w.notice != nil && w.notice.Outcome == processor.OutcomeOverdue:
			err = moneyStep(ctx, true, a.OverdueBilling, b.ID, &status)
		case w.timer:
			err = moneyStep(ctx, true, a.CancelBilling, b.ID, &status)
		case w.notice.Outcome == processor.OutcomePaid:
			err = moneyStep(ctx, true, a.PayBilling, activities.BillingPaidInput{BillingID: b.ID, Notice: *w.notice}, &status)
		case w.notice.Outcome == processor.OutcomeFailed:
			err = moneyStep(ctx, true, a.FailBilling, activities.BillingFailInput{BillingID: b.ID, Reason: w.notice.Reason}, &status)
		}
		if err != nil {
			return "", err
		}
		if err := setStatus(ctx, status); err != nil {
			return "", err
		}
	}
	if status == billing.BillingCanceled {
		var err error
		if status, err = voidCanceled(ctx, b); err != nil {
			return "", err
		}
	}
	if status == billing.BillingConfirmed {
		// A card's money is the acquirer's until its credit date.
		if err := workflow.Sleep(ctx, domain.BillingCreditAt(b.Method, workflow.Now(ctx)).Sub(workflow.Now(ctx))); err != nil {
			return "", err
		}
		if err := moneyStep(ctx, true, a.ReceiveBilling, b.ID, &status); err != nil {
			return "", err
		}
	}
	return status, setStatus(ctx, status)
}

// billingStatusOfCharge is the status a PIX billing took in its charge's
// transition (the hook moved the row; the workflow only follows).
func billingStatusOfCharge(chargeStatus, current string) string {
	switch chargeStatus {
	case domain.StatusCompleted:
		return billing.BillingReceived
	case domain.StatusCanceled:
		return billing.BillingCanceled
	case domain.StatusFailed:
		return billing.BillingFailed
	}
	return current
}

// awaitBilling waits for the first of: a notice naming this billing, its
// charge's move, its payer's debit card, its cancel, or timeout (already due: the timer fires at
// once). Signals that arrived while the start was deferred count first.
func awaitBilling(ctx workflow.Context, id string, timeout time.Duration) billingWake {
	notices := workflow.GetSignalChannel(ctx, BillingSignal)
	charges := workflow.GetSignalChannel(ctx, BillingChargeSignal)
	cancels := workflow.GetSignalChannel(ctx, BillingCancelSignal)
	debits := workflow.GetSignalChannel(ctx, BillingDebitCardSignal)
	tctx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	timer := workflow.NewTimer(tctx, max(timeout, 0))
	var w billingWake
	for w == (billingWake{}) {
		sel := workflow.NewSelector(ctx)
		// Signals first: one that is buffered beats a timer already due.
		sel.AddReceive(notices, func(c workflow.ReceiveChannel, _ bool) {
			var n processor.BillingNotice
			if c.ReceiveAsync(&n) && n.BillingID == id && n.Known() {
				w.notice = &n
			}
		})
		sel.AddReceive(charges, func(c workflow.ReceiveChannel, _ bool) {
			var m activities.ChargeMoved
			if c.ReceiveAsync(&m) && m.OwnerID == id {
				w.charge = &m
			}
		})
		sel.AddReceive(debits, func(c workflow.ReceiveChannel, _ bool) {
			var d activities.DebitCardInput
			if c.ReceiveAsync(&d) && d.BillingID == id {
				w.debit = &d
			}
		})
		sel.AddReceive(cancels, func(c workflow.ReceiveChannel, _ bool) {
			var got string
			if c.ReceiveAsync(&got) && got == id {
				w.canceled = true
			}
		})
		if !sel.HasPending() {
			sel.AddFuture(timer, func(workflow.Future) { w.timer = true })
		}
		sel.Select(ctx)
	}
	return w
}

// voidCanceled ends a CANCELED billing: its boleto is voided at the
// registrar (an outside call: an ordinary activity), then a payment notice
// that arrived beside the cancel is booked as a late payment (the
// registrar took it before the void; its money must not vanish with this
// workflow). A notice arriving after the workflow ends is the Inbox's to
// book. It answers the billing's status.
func voidCanceled(ctx workflow.Context, b billing.Billing) (string, error) {
	var a *activities.Billings
	status := billing.BillingCanceled
	if workflow.GetVersion(ctx, "void-canceled-boleto", workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return status, nil
	}
	if b.Method == domain.MethodBoleto {
		if err := moneyStep(ctx, false, a.VoidBoleto, b.ID, &status); err != nil {
			return "", err
		}
	}
	paid, ok := receiveNow(ctx, BillingSignal, func(n processor.BillingNotice) bool {
		return n.BillingID == b.ID && n.Outcome == processor.OutcomePaid
	})
	if ok && status == billing.BillingCanceled {
		if err := moneyStep(ctx, true, a.PayBilling, activities.BillingPaidInput{BillingID: b.ID, Notice: paid}, &status); err != nil {
			return "", err
		}
	}
	return status, nil
}
