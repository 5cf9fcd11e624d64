package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/fiscal"
	"github.com/jangada/jangada/processor"
)

// LaunchFiscalInvoice is the fiscal invoice's workflow-start kind
// (workflow_launches.kind, never renamed). It is declared here, not in
// service like the other kinds, because the intent is recorded by the
// charge's paid transition (openFiscalInvoice), not by a use case; the
// service registers its loader (registerLaunch) under this name.
const LaunchFiscalInvoice = "fiscal_invoice"

// FiscalInvoiceLaunchGrace is how long an invoice's intent is left to the
// charge's workflow, which starts the invoice's workflow right after the
// paid transition commits, before the sweeper starts it instead (the same
// grace as a request's, service.LaunchGrace).
const FiscalInvoiceLaunchGrace = 10 * time.Second

// FiscalInvoices are the fiscal invoice workflow's activities: the
// submission to the issuer, its answer, and the cancellation of a refunded
// sale's invoice at the issuer. The invoice's birth (openFiscalInvoice)
// and its cancellation (cancelFiscalInvoice) are not activities: they run
// inside the charge's and the refund's transitions.
type FiscalInvoices struct {
	Base
	Processor processor.Fiscal
}

// openFiscalInvoice writes, in a charge's transition transaction, the
// fiscal invoice a paid charge asked for (emitFiscalInvoice) and the intent
// to start its workflow, and answers its invoice.created event for the
// transition to write after the charge's own. A charge that is not paid or
// asked for none, or whose invoice exists (a retried transition), writes
// nothing.
func openFiscalInvoice(ctx context.Context, tx *sqlx.Tx, charge domain.Transaction) ([]db.NewEvent, error) {
	if !fiscal.WantsFiscalInvoice(charge) {
		return nil, nil
	}
	inv := fiscal.NewFiscalInvoice(charge)
	fresh, err := db.InsertFiscalInvoice(ctx, tx, inv)
	if err != nil || !fresh {
		return nil, err
	}
	if err := db.InsertLaunch(ctx, tx, LaunchFiscalInvoice, inv.ID, FiscalInvoiceLaunchGrace); err != nil {
		return nil, err
	}
	return []db.NewEvent{invoiceEvent(inv, domain.EventInvoiceCreated)}, nil
}

// cancelFiscalInvoice cancels, in a refund's completion transaction, the
// fiscal invoice of the refunded deposit, if it has one that may be
// cancelled (not FAILED: nothing was issued; not CANCELLED already), and
// answers its invoice.cancelled event. The issuer is told afterwards, by
// WithdrawInvoice.
func cancelFiscalInvoice(ctx context.Context, tx *sqlx.Tx, deposit domain.Transaction) ([]db.NewEvent, error) {
	if !deposit.Details.V.FiscalInvoice {
		return nil, nil
	}
	// Its event is the refund's to write, after the refund's own: the step
	// stores the row alone and answers it.
	inv, moved, err := lockStep(ctx, tx, fiscal.FiscalInvoiceID(deposit.ID), invoiceRecords,
		moveInvoice(fiscal.InvoiceCancelled, "", nil))
	if errors.Is(err, domain.ErrNotFound) { // paid before its account could ask for one
		return nil, nil
	}
	if err != nil || !moved {
		return nil, err
	}
	return []db.NewEvent{invoiceEvent(inv, domain.EventInvoiceCancelled)}, nil
}

// invoiceEvent is an invoice.* event: on the charge's account and API key,
// with only the invoice's id as data (the specification's payload).
func invoiceEvent(inv fiscal.FiscalInvoice, typ string) db.NewEvent {
	return db.NewEvent{AccountID: inv.AccountID, APIKeyID: inv.APIKeyID, Type: typ, ResourceID: inv.ID,
		Data: fiscal.InvoiceEventData{InvoiceID: inv.ID}}
}

// SubmitInvoice hands a CREATED invoice to the issuer (idempotent there on
// the invoice id) and moves it to PROCESSING (invoice.processing) with the
// issuer's reference, clearing its workflow intent in the same
// transaction: the workflow that runs this step exists. An invoice past
// CREATED (a retry, or cancelled first) is returned as it is.
func (a *FiscalInvoices) SubmitInvoice(ctx context.Context, id string) (fiscal.FiscalInvoice, error) {
	inv, err := db.GetFiscalInvoice(ctx, a.DB, id)
	if err != nil || inv.Status != fiscal.InvoiceCreated {
		return inv, err
	}
	charge, err := db.TransactionByID(ctx, a.DB, inv.ChargeID, domain.TypePixIn)
	if err != nil {
		return inv, err
	}
	sub, err := a.Processor.IssueInvoice(ctx, processor.InvoiceRequest{ID: inv.ID, AccountID: inv.AccountID, ChargeID: inv.ChargeID,
		Amount: inv.Amount, Description: charge.Description, Payer: charge.Payer.Ptr()})
	if err != nil {
		return inv, fmt.Errorf("processor: issue invoice: %w", err)
	}
	inv, _, err = runStep(ctx, a.DB, id, invoiceRecords, moveInvoice(fiscal.InvoiceProcessing, domain.EventInvoiceProcessing,
		func(tx *sqlx.Tx, inv *fiscal.FiscalInvoice) error {
			inv.ReferenceID = &sub.ReferenceID
			return db.DeleteLaunch(ctx, tx, LaunchFiscalInvoice, inv.ID)
		}))
	return inv, err
}

// ConcludeInvoice applies the issuer's answer: ISSUED with its number
// (invoice.issued) or FAILED with its reason (invoice.failed). An invoice
// not PROCESSING (a retry, or cancelled meanwhile) is returned as it is.
func (a *FiscalInvoices) ConcludeInvoice(ctx context.Context, n processor.InvoiceNotice) (fiscal.FiscalInvoice, error) {
	move := moveInvoice(fiscal.InvoiceFailed, domain.EventInvoiceFailed, func(_ *sqlx.Tx, inv *fiscal.FiscalInvoice) error {
		inv.Reason = &n.Reason
		return nil
	})
	if n.Outcome == processor.OutcomeIssued {
		move = moveInvoice(fiscal.InvoiceIssued, domain.EventInvoiceIssued, func(_ *sqlx.Tx, inv *fiscal.FiscalInvoice) error {
			inv.Number = &n.Number
			return nil
		})
	}
	inv, _, err := runStep(ctx, a.DB, n.InvoiceID, invoiceRecords, move)
	return inv, err
}

// WithdrawInvoice tells the issuer that a CANCELLED invoice (its sale was
// refunded) is withdrawn; the issuer is idempotent on the id. An invoice
// that is not cancelled, or does not exist, asks nothing.
func (a *FiscalInvoices) WithdrawInvoice(ctx context.Context, id string) error {
	inv, err := db.GetFiscalInvoice(ctx, a.DB, id)
	if errors.Is(err, domain.ErrNotFound) {
		return nil
	}
	if err != nil || inv.Status != fiscal.InvoiceCancelled {
		return err
	}
	if err := a.Processor.CancelInvoice(ctx, id); err != nil {
		return fmt.Errorf("processor: cancel invoice: %w", err)
	}
	return nil
}

// invoiceRecords are the fiscal invoices' rows for a step; their events
// are invoiceEvent.
var invoiceRecords = ownTable(db.LockFiscalInvoice, db.UpdateFiscalInvoice, invoiceEvent)

// moveInvoice is the apply of an invoice's step: it moves the invoice to
// `to` only if fiscal.InvoiceMoves allows it (else it was past this step:
// the zero change, nothing written), lets fill (if any) set the step's
// fields and write in the same transaction, and names the step's event
// (none: "").
func moveInvoice(to, event string, fill func(tx *sqlx.Tx, inv *fiscal.FiscalInvoice) error) func(*sqlx.Tx, *fiscal.FiscalInvoice) (change, error) {
	return func(tx *sqlx.Tx, inv *fiscal.FiscalInvoice) (change, error) {
		if !fiscal.InvoiceMoves(inv.Status, to) {
			return change{}, nil
		}
		inv.Status = to
		ch := emit()
		if event != "" {
			ch = emit(event)
		}
		if fill == nil {
			return ch, nil
		}
		return ch, fill(tx, inv)
	}
}
