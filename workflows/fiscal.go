package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/fiscal"
	"github.com/jangada/jangada/processor"
)

// ResourceFiscalInvoice is the JangadaResourceType of fiscal invoice
// workflows.
const ResourceFiscalInvoice = "FISCAL_INVOICE"

// InvoiceAnswerTimeout is how long a fiscal invoice waits for the issuer's
// answer (a durable timer) before it is FAILED as unanswered.
const InvoiceAnswerTimeout = 24 * time.Hour

// FiscalInvoiceInput starts a fiscal invoice's workflow.
type FiscalInvoiceInput struct {
	Invoice fiscal.FiscalInvoice
}

// FiscalInvoiceWorkflowID derives the workflow id from the invoice id.
func FiscalInvoiceWorkflowID(id string) string { return "invoice/" + id }

// FiscalInvoiceStart is how a fiscal invoice's workflow is started: by its
// charge's workflow (as an abandoned child, ChildOptions) or, if that start
// was lost, by the sweeper.
func FiscalInvoiceStart(inv fiscal.FiscalInvoice) Start {
	return Start{
		ID: FiscalInvoiceWorkflowID(inv.ID), AccountID: inv.AccountID, ResourceID: inv.ID, ResourceType: ResourceFiscalInvoice,
		Status: inv.Status, Amount: inv.Amount,
		Summary: "Fiscal invoice " + inv.Amount.Format() + " of charge " + inv.ChargeID,
		Details: "Account `" + inv.AccountID + "`, invoice `" + inv.ID + "`, charge `" + inv.ChargeID + "`. Signal `" + NoticeSignal +
			"` with {\"invoiceId\":\"" + inv.ID + "\",\"outcome\":\"issued\"|\"failed\"} acts as the issuer (a notice naming another invoice is ignored).",
		Memo: map[string]any{"invoiceId": inv.ID, "chargeId": inv.ChargeID},
	}
}

// fa names the fiscal invoice activities by Go reference.
var fa *activities.FiscalInvoices

var _ = host(FiscalInvoiceWorkflow)

// FiscalInvoiceWorkflow follows one fiscal invoice through the issuer: it
// submits the invoice (PROCESSING), waits for the issuer's answer as a
// signal (a durable wait of at most InvoiceAnswerTimeout, then FAILED) and
// concludes it (ISSUED or FAILED). An invoice cancelled first (its charge
// refunded) is left as it is.
func FiscalInvoiceWorkflow(ctx workflow.Context, in FiscalInvoiceInput) (string, error) {
	id := in.Invoice.ID
	actx := moneyActivities(ctx)
	var inv fiscal.FiscalInvoice
	if err := workflow.ExecuteActivity(actx, fa.SubmitInvoice, id).Get(ctx, &inv); err != nil {
		return "", err
	}
	if err := setStatus(ctx, inv.Status); err != nil || inv.Status != fiscal.InvoiceProcessing {
		return inv.Status, err
	}
	n, ok := awaitSignal(ctx, NoticeSignal, InvoiceAnswerTimeout,
		addressedTo(ctx, true, NoticeSignal, id, func(n processor.InvoiceNotice) string { return n.InvoiceID }, processor.InvoiceNotice.Final))
	if !ok {
		n = processor.InvoiceNotice{InvoiceID: id, Outcome: processor.OutcomeFailed, At: workflow.Now(ctx),
			Reason: "the issuer did not answer within " + InvoiceAnswerTimeout.String()}
	}
	if err := workflow.ExecuteActivity(actx, fa.ConcludeInvoice, n).Get(ctx, &inv); err != nil {
		return "", err
	}
	return inv.Status, setStatus(ctx, inv.Status)
}

// fiscalInvoiceChange marks charge histories that start their fiscal
// invoice's workflow (version 1); older ones replay without the start.
const fiscalInvoiceChange = "fiscal-invoice-start"

// startFiscalInvoice starts, from a charge's workflow, the workflow of the
// fiscal invoice its paid transition opened (domain.WantsFiscalInvoice),
// as an abandoned child that outlives the charge. It waits only for the
// start: a start that fails (the sweeper started it first, or Temporal
// refused) is left to the invoice's intent, which the sweeper redoes.
func startFiscalInvoice(ctx workflow.Context, charge domain.Transaction, status string) {
	charge.Status = status
	if !fiscal.WantsFiscalInvoice(charge) || workflow.GetVersion(ctx, fiscalInvoiceChange, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return
	}
	inv := fiscal.NewFiscalInvoice(charge)
	cctx := workflow.WithChildOptions(ctx, FiscalInvoiceStart(inv).ChildOptions())
	err := workflow.ExecuteChildWorkflow(cctx, FiscalInvoiceWorkflow, FiscalInvoiceInput{Invoice: inv}).GetChildWorkflowExecution().Get(ctx, nil)
	if err != nil {
		workflow.GetLogger(ctx).Info("fiscal invoice's workflow not started here (left to its intent)", "invoiceId", inv.ID, "error", err)
	}
}

// withdrawFiscalInvoiceChange marks refund histories that tell the issuer
// of their deposit's cancelled fiscal invoice (version 1).
const withdrawFiscalInvoiceChange = "fiscal-invoice-withdraw"

// withdrawFiscalInvoice tells the issuer, after a refund completed, that
// the deposit's fiscal invoice (cancelled in the refund's transaction) is
// withdrawn. Only deposits that asked for an invoice record the step.
func withdrawFiscalInvoice(ctx workflow.Context, deposit domain.Transaction) error {
	if !deposit.Details.V.FiscalInvoice || workflow.GetVersion(ctx, withdrawFiscalInvoiceChange, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return nil
	}
	return workflow.ExecuteActivity(moneyActivities(ctx), fa.WithdrawInvoice, fiscal.FiscalInvoiceID(deposit.ID)).Get(ctx, nil)
}
