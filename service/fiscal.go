package service

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/fiscal"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// Fiscal invoices have no use case: no route creates or reads one (the
// specification lists none). An invoice is born in its charge's paid
// transition (activities.openFiscalInvoice), which records its workflow's
// intent under activities.LaunchFiscalInvoice; its workflow is started by
// the charge's workflow, or else by the sweeper through this registry
// entry. The issuer's answers arrive at the Inbox (InvoiceNotice).

// The sweeper rebuilds a fiscal invoice's start from the stored row.
var _ = registerLaunch(activities.LaunchFiscalInvoice, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
	inv, err := db.GetFiscalInvoice(ctx, q, id)
	return fiscalInvoiceLaunch(inv), err
})

// fiscalInvoiceLaunch is a fiscal invoice's workflow start, for the
// sweeper (the charge's workflow starts the same workflow, with the same
// Start, as its child).
func fiscalInvoiceLaunch(inv fiscal.FiscalInvoice) launch {
	return launch{activities.LaunchFiscalInvoice, inv.ID, workflows.FiscalInvoiceStart(inv), workflows.FiscalInvoiceWorkflow,
		workflows.FiscalInvoiceInput{Invoice: inv}}
}

// InvoiceNotice forwards the issuer's answer to a fiscal invoice's
// workflow (processor.Inbox). An invoice ISSUED or FAILED already refuses
// it (400); a CANCELLED one still forwards it, so that a workflow waiting
// for the answer of an invoice cancelled meanwhile ends.
func (s *Inbox) InvoiceNotice(ctx context.Context, invoiceID string, n processor.InvoiceNotice) error {
	inv, err := db.GetFiscalInvoice(ctx, s.DB, invoiceID)
	if err != nil {
		return err
	}
	if inv.Status == fiscal.InvoiceIssued || inv.Status == fiscal.InvoiceFailed {
		return domain.Invalidf("fiscal invoice %s is %s already", inv.ID, inv.Status)
	}
	n.InvoiceID = inv.ID // its workflow ignores a notice naming another
	return signal(ctx, s.Temporal, workflows.FiscalInvoiceWorkflowID(inv.ID), workflows.NoticeSignal, n,
		fmt.Sprintf("fiscal invoice %s is no longer with the issuer", inv.ID))
}
