package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/processor"
)

// Billings are the billing workflow's activities. A billing has its own
// table (it is not money until paid): its steps are lockStep and runStep
// with its records (billingRecords), as every product's. The catalog has no
// billing event (the spec's boleto events are not active), so they write
// none.
type Billings struct {
	Base
	Processor processor.Billings
}

// BillingPaidInput carries the processor's notice that a billing was paid.
type BillingPaidInput struct {
	BillingID string
	Notice    processor.BillingNotice
}

// BillingFailInput carries a declined card's reason.
type BillingFailInput struct {
	BillingID string
	Reason    string
}

// InsertBilling writes a new billing (the create's first records: the row
// and, when intent is set, its workflow's intent, in one statement; a PIX
// billing has no workflow and is written in its charge's transaction). It
// reports false when an earlier attempt wrote it.
func InsertBilling(ctx context.Context, q sqlx.QueryerContext, b billing.Billing, intent *db.Intent) (bool, error) {
	return db.InsertBilling(ctx, q, b, intent)
}

// billingRecords are the billings' rows for a step (lockStep, runStep):
// a billing has no events.
var billingRecords = ownTable(db.LockBilling, db.UpdateBilling, nil)

// billingStatus answers a billing's step with the billing's status.
func billingStatus(b billing.Billing, _ bool, err error) (string, error) { return b.Status, err }

// SubmitCard submits a card billing's sale to the acquirer (idempotent on
// the billing id); the answer arrives as a BillingNotice. A billing no
// longer PENDING (a retry after the answer came) submits nothing.
func (a *Billings) SubmitCard(ctx context.Context, billingID string) error {
	b, err := db.BillingByID(ctx, a.DB, billingID)
	if err != nil || b.Status != billing.BillingPending {
		return err
	}
	tok, err := db.GetCardToken(ctx, a.DB, b.AccountID, b.Details.V.CardToken)
	if err != nil {
		return fmt.Errorf("billing %s: card token: %w", b.ID, err)
	}
	_, err = a.Processor.ChargeCard(ctx, processor.CardChargeRequest{
		ID: b.ID, Token: tok.ProcessorToken, Method: b.Method, Amount: b.Amount, Installments: b.InstallmentCount,
	})
	return err
}

// PayBilling books a boleto or card billing the processor says was paid
// (BookBillingPayment).
func (a *Billings) PayBilling(ctx context.Context, in BillingPaidInput) (string, error) {
	return BookBillingPayment(ctx, a.DB, in)
}

// BookBillingPayment books a boleto or card billing the processor says was
// paid (PENDING or OVERDUE: a boleto is payable after its due date): the
// gross from billing clearing, the fees to revenue, the net to the
// merchant locked until the credit date (docs/ledger.md "Billings"), a
// BILLING statement line and the customer's payment. A card billing
// becomes CONFIRMED (RECEIVED at its credit date: ReceiveBilling), a
// boleto RECEIVED. A CANCELED billing the registrar or acquirer took the
// payment of before it was voided is booked the same way, RECEIVED and
// marked a late payment: the payer's money is the merchant's, who may
// refund it (docs/ledger.md "A payment after a cancel"). The billing's
// workflow and the Inbox (for a billing whose workflow has ended) share it.
func BookBillingPayment(ctx context.Context, d *sqlx.DB, in BillingPaidInput) (string, error) {
	b, _, err := runStep(ctx, d, in.BillingID, billingRecords, func(tx *sqlx.Tx, b *billing.Billing) (change, error) {
		return bookPayment(ctx, tx, b, in.Notice)
	})
	return b.Status, err
}

// bookPayment moves b paid inside tx (see BookBillingPayment); the zero
// change when it is not payable (a retry, a closed billing) or is a PIX
// billing (paid through its charge).
func bookPayment(ctx context.Context, tx *sqlx.Tx, b *billing.Billing, n processor.BillingNotice) (change, error) {
	late := b.Status == billing.BillingCanceled
	if (!b.Payable() && !late) || b.Method == domain.MethodPix {
		return change{}, nil
	}
	at := n.At.UTC()
	if at.IsZero() {
		at = time.Now().UTC()
	}
	creditAt := domain.BillingCreditAt(b.Method, at)
	line := billingLine(*b, at)
	if _, err := db.InsertTransaction(ctx, tx, line); err != nil {
		return change{}, err
	}
	if _, err := db.Post(ctx, tx, billingPaidPosting(*b, line.ID, creditAt)); err != nil {
		return change{}, err
	}
	if b.CustomerID != nil {
		if err := db.AddCustomerPayment(ctx, tx, *b.CustomerID, b.Amount); err != nil {
			return change{}, err
		}
	}
	b.Status = billing.BillingReceived
	if b.Method != domain.MethodBoleto && !late {
		b.Status = billing.BillingConfirmed
	}
	if late {
		d := b.Details.V
		d.LatePayment = true
		b.Details = domain.SomeJSON(d)
	}
	markPaid(b, at, creditAt, line.ID)
	if n.ReferenceID != "" && b.ExternalID == nil {
		ref := n.ReferenceID
		b.ExternalID = &ref
	}
	return emit(), nil
}

// markPaid records when the billing was paid, when its money is credited
// and its statement line.
func markPaid(b *billing.Billing, at, creditAt time.Time, lineID string) {
	credit := domain.Today(creditAt)
	b.PaidAt, b.EstimatedCreditDate, b.AccountTransactionID = domain.TimePtr(at), &credit, &lineID
}

// billingLine is the statement line of a paid boleto or card billing, with
// an id derived from the billing so that it exists once.
func billingLine(b billing.Billing, at time.Time) domain.Transaction {
	ref := b.ID
	return domain.Transaction{
		ID: domain.DerivedID("", "billing:"+b.ID), AccountID: b.AccountID, APIKeyID: b.APIKeyID, Type: billing.TypeBilling,
		Status: domain.StatusCompleted, Amount: b.Amount, FeeAmount: b.FeesTotal(), NetAmount: b.NetAmount,
		Description: "Billing " + b.Method + " " + b.ID, ReferenceID: &ref,
		CompletedAt: domain.TimePtr(at), CreatedAt: domain.NewTime(at),
	}
}

// ReceiveBilling moves a CONFIRMED card billing to RECEIVED at its credit
// date (its money was posted when it was confirmed: nothing moves now).
func (a *Billings) ReceiveBilling(ctx context.Context, billingID string) (string, error) {
	return billingStatus(runStep(ctx, a.DB, billingID, billingRecords, func(_ *sqlx.Tx, b *billing.Billing) (change, error) {
		if b.Status != billing.BillingConfirmed {
			return change{}, nil
		}
		b.Status = billing.BillingReceived
		return emit(), nil
	}))
}

// OverdueBilling marks a PENDING billing OVERDUE at the end of its due
// date; it stays payable.
func (a *Billings) OverdueBilling(ctx context.Context, billingID string) (string, error) {
	return billingStatus(runStep(ctx, a.DB, billingID, billingRecords, func(_ *sqlx.Tx, b *billing.Billing) (change, error) {
		if b.Status != billing.BillingPending {
			return change{}, nil
		}
		b.Status = billing.BillingOverdue
		return emit(), nil
	}))
}

// FailBilling marks a billing whose card was declined FAILED; no money
// had moved.
func (a *Billings) FailBilling(ctx context.Context, in BillingFailInput) (string, error) {
	return billingStatus(runStep(ctx, a.DB, in.BillingID, billingRecords, func(_ *sqlx.Tx, b *billing.Billing) (change, error) {
		if !b.Payable() {
			return change{}, nil
		}
		b.Status = billing.BillingFailed
		d := b.Details.V
		d.FailureReason = in.Reason
		b.Details = domain.SomeJSON(d)
		return emit(), nil
	}))
}

// CancelBilling cancels a billing still payable (the end of its payable
// period after the due date); the workflow then voids its boleto
// (VoidBoleto).
func (a *Billings) CancelBilling(ctx context.Context, billingID string) (string, error) {
	b, _, err := CancelPayableBilling(ctx, a.DB, "", billingID)
	return b.Status, err
}

// VoidBoleto voids a CANCELED boleto billing's boleto at the registrar, so
// that it refuses a payment from now on, and records the void on the row
// (a retry finds it and asks nothing). A registrar that took a payment
// first (processor.ErrBoletoPaid) voids nothing: its paid notice books a
// late payment (BookBillingPayment), here or through the Inbox. It answers
// the billing's status (RECEIVED once a late payment is booked).
func (a *Billings) VoidBoleto(ctx context.Context, billingID string) (string, error) {
	b, err := db.BillingByID(ctx, a.DB, billingID)
	if err != nil || b.Method != domain.MethodBoleto || b.Status != billing.BillingCanceled || b.Details.V.BoletoVoided {
		return b.Status, err
	}
	ref := ""
	if b.ExternalID != nil {
		ref = *b.ExternalID
	}
	err = a.Processor.CancelBoleto(ctx, processor.BoletoCancelRequest{BillingID: b.ID, ReferenceID: ref})
	if errors.Is(err, processor.ErrBoletoPaid) {
		return b.Status, nil
	}
	if err != nil {
		return b.Status, fmt.Errorf("processor: cancel boleto: %w", err)
	}
	return billingStatus(runStep(ctx, a.DB, billingID, billingRecords, func(_ *sqlx.Tx, b *billing.Billing) (change, error) {
		if b.Status != billing.BillingCanceled || b.Details.V.BoletoVoided {
			return change{}, nil
		}
		d := b.Details.V
		d.BoletoVoided = true
		b.Details = domain.SomeJSON(d)
		return emit(), nil
	}))
}

// ErrBillingNotPayable is why a billing cannot be canceled.
var ErrBillingNotPayable = errors.New("billing is no longer payable")

// CancelPayableBilling moves the billing to CANCELED if it is PENDING or
// OVERDUE (accountID "" : any account); it reports whether it moved. The
// cancel use case and the workflow's end of the payable period share it.
func CancelPayableBilling(ctx context.Context, d *sqlx.DB, accountID, id string) (billing.Billing, bool, error) {
	return runStep(ctx, d, id, billingRecords, func(_ *sqlx.Tx, b *billing.Billing) (change, error) {
		if accountID != "" && b.AccountID != accountID {
			return change{}, domain.ErrNotFound
		}
		if !b.Payable() {
			return change{}, nil
		}
		b.Status = billing.BillingCanceled
		return emit(), nil
	})
}
